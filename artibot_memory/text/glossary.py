"""Words a developer uses for one thing, in English and Korean: one concept each (stdlib).

A person asks in the words of the moment and in either language: "커밋 메시지 영어로 써도
돼?" is about the preference "Always write commit messages in English", "who approves
releases" about "릴리스는 민수 님이 승인해요". Keyword recall finds what shares words; this
table lets a prompt's word stand for the other words of its concept (``commit`` for 커밋,
``db`` for database and 디비), so per-prompt recall looks for and weighs concepts, not
spellings. It is a small, general vocabulary of software work (the nouns and verbs of
code, tests, reviews, deploys, data, payments, documents), not a thesaurus: a word outside
it is its own concept.

Each group is read through :func:`artibot_memory.text.tokens.tokenize`, the tokens
memories are indexed by (English stems, Korean nouns without their particles), a Korean
compound whole (its halves, which search adds, belong to no concept).

>>> concept_of("커밋") == concept_of("commit"), concept_of("zebra")
(True, 'zebra')
>>> sorted(alternates("디비"))[:4]
['databas', 'db', 'mysql', 'postgr']
"""

from __future__ import annotations

import functools

from artibot_memory.text.tokens import tokenize

__all__ = ["GROUPS", "TOKENS", "alternates", "concept_of", "tokens_of"]

# One concept a line: its words in English, then in Korean (transliterations included).
GROUPS = (
    "commit commits 커밋",
    "message messages msg 메시지 메세지",
    "language languages 언어",
    "english 영어 영문",
    "korean 한국어 한글",
    "answer answers reply replies response responses 답변 대답 응답",
    "install installing installs 설치",
    "dependency dependencies deps 의존성 디펜던시",
    "package packages 패키지",
    "component components 컴포넌트",
    "export exports 익스포트 내보내기",
    "module modules 모듈",
    "test tests testing 테스트",
    "review reviews reviewer reviewers 리뷰 리뷰어 검토",
    "approve approves approval 승인",
    "release releases version versions 릴리스 릴리즈 버전",
    "tag tags 태그",
    "deploy deploys deployed deployment 배포",
    "staging 스테이징",
    "production prod 프로덕션 프로드 운영",
    "region regions 리전",
    "host hosted hosting 호스팅",
    "database databases db 디비 데이터베이스 postgres postgresql 포스트그레스 포스트그레 mysql sqlite",  # noqa: E501 - one concept
    "port ports 포트",
    "local 로컬",
    "password passwords 비밀번호 비번 패스워드 암호",
    "hash hashes hashing 해시 해싱",
    "webhook webhooks 웹훅",
    "signature signatures 서명",
    "verify verification 검증 확인",
    "payment payments 결제",
    "refund refunds 환불",
    "coupon coupons 쿠폰",
    "cart carts 장바구니 카트",
    "wishlist 위시리스트",
    "checkout 체크아웃",
    "error errors 에러 오류",
    "fix fixed fixes 고치 고쳐 고침 해결",
    "fail failed fails failing failure 실패",
    "docs doc documentation documents 문서",
    "site 사이트",
    "build builds 빌드",
    "link links 링크",
    "lint linter linting 린트",
    "type types 타입",
    "state 상태",
    "lock locks locking 잠금 락",
    "bucket buckets 버킷",
    "order orders 주문",
    "table tables 테이블",
    "round rounding 반올림 라운딩",
    "folder folders directory directories dir 폴더 디렉터리 디렉토리",
    "code 코드",
    "handler handlers 핸들러",
    "library libraries lib 라이브러리",
    "config configuration 설정",
    "backend 백엔드",
    "frontend 프론트엔드 프런트엔드",
    "endpoint endpoints 엔드포인트",
    "branch branches 브랜치",
    "merge merges merged 머지 병합",
    "rule rules convention conventions 규칙 규칙들 컨벤션",
    "reason reasons 이유",
    "empty 빈",
    "page pages 페이지",
    "button buttons 버튼",
    "input inputs 인풋 입력",
    "queue queues 큐",
    "migration migrations migrate 마이그레이션",
    "schema schemas 스키마",
    "user users 사용자 유저",
    "account accounts 계정",
    "log logs logging 로그 로깅",
    "image images 이미지",
    "file files 파일",
    "search 검색",
    "apply 적용",
    "plan 플랜",
    "terraform 테라폼",
    "laptop 노트북",
    "pagination 페이지네이션",
    "rollback 롤백",
    "guide 가이드",
)


# GROUPS as the tokens their words become (tokenize is a pure-Python stemmer: reading the
# groups at every prompt would cost ~8 ms); tests/test_glossary.py checks it is GROUPS'.
TOKENS = (
    "commit 커밋",
    "messag msg 메시지 메세지",
    "languag 언어",
    "english 영어 영문",
    "korean 한국어 한글",
    "answer repli respons 답변 대답 응답",
    "instal 설치",
    "depend dep 의존성 디펜던시",
    "packag 패키지",
    "compon 컴포넌트",
    "export 익스포트 내보내기",
    "modul 모듈",
    "test 테스트",
    "review 리뷰 리뷰어 검토",
    "approv 승인",
    "releas version 릴리스 릴리즈 버전",
    "tag 태그",
    "deploy 배포",
    "stage 스테이징",
    "product prod 프로덕션 프로드 운영",
    "region 리전",
    "host 호스팅",
    "databas db 디비 데이터베이스 postgr postgresql 포스트그레스 포스트그레 mysql sqlite",
    "port 포트",
    "local 로컬",
    "password 비밀번호 비번 패스워드 암호",
    "hash 해시 해싱",
    "webhook 웹훅",
    "signatur 서명",
    "verifi verif 검증 확인",
    "payment 결제",
    "refund 환불",
    "coupon 쿠폰",
    "cart 장바구니 카트",
    "wishlist 위시리스트",
    "checkout 체크아웃",
    "error 에러 오류",
    "fix 고치 고쳐 고침 해결",
    "fail failur 실패",
    "doc document 문서",
    "site 사이트",
    "build 빌드",
    "link 링크",
    "lint linter 린트",
    "type 타입",
    "state 상태",
    "lock 잠금 락",
    "bucket 버킷",
    "order 주문",
    "tabl 테이블",
    "round 반올림 라운딩",
    "folder directori dir 폴더 디렉터리 디렉토리",
    "code 코드",
    "handler 핸들러",
    "librari lib 라이브러리",
    "config configur 설정",
    "backend 백엔드",
    "frontend 프론트엔드 프런트엔드",
    "endpoint 엔드포인트",
    "branch 브랜치",
    "merg 머지 병합",
    "rule convent 규칙 규칙들 컨벤션",
    "reason",
    "empti 빈",
    "page 페이지",
    "button 버튼",
    "input 인풋 입력",
    "queue 큐",
    "migrat 마이그레이션",
    "schema 스키마",
    "user 사용자 유저",
    "account 계정",
    "log 로그 로깅",
    "imag 이미지",
    "file 파일",
    "search 검색",
    "appli 적용",
    "plan 플랜",
    "terraform 테라폼",
    "laptop 노트북",
    "pagin 페이지네이션",
    "rollback 롤백",
    "guid 가이드",
)


def tokens_of(groups: tuple[str, ...]) -> tuple[str, ...]:
    """Return each group's words as the tokens they become (what :data:`TOKENS` holds).

    >>> tokens_of(("message messages 메시지는",))
    ('messag 메시지',)
    """
    found = []
    for group in groups:
        tokens = [token for word in group.split() for token in tokenize(word)]
        found.append(" ".join(dict.fromkeys(tokens)))
    return tuple(found)


@functools.cache
def _table() -> dict[str, frozenset[str]]:
    """Return each token's concept: the set of tokens of its group."""
    table: dict[str, frozenset[str]] = {}
    for group in TOKENS:
        tokens = frozenset(group.split())
        for token in tokens:
            table[token] = table.get(token, frozenset()) | tokens
    return table


def alternates(token: str) -> frozenset[str]:
    """Return the tokens that mean what ``token`` means (itself included)."""
    return _table().get(token, frozenset({token}))


def concept_of(token: str) -> str:
    """Return the name of ``token``'s concept: the least of its tokens (itself when alone)."""
    return min(alternates(token))
