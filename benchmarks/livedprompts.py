"""The per-prompt recall set over the lived month (benchmarks/livedmonth.py): prompts and gold.

Not a benchmark itself: ``prompt_recall_lived.py`` asks these. Each prompt is written as a
user types it mid-session (lower case, typos, half sentences, English and Korean), never
copied from the memory it is about, and is asked from a project folder at one of the
month's starts (:func:`prompts`). Its gold is:

- **a memory that answers it**, named by a content matcher over the record (its text and
  its resolution), since ids are random: "an error record whose text holds TS2322 and
  whose fix holds ``??``", "a record saying Postgres for orders because of JSONB". A
  session summary never counts (it holds every word of its session): the atomic record
  must be the one injected; only a "next time"/TODO, which may live nowhere else, counts
  in a summary too. Some questions have a different answer as the month goes on (commit
  messages in English, then in Korean; an error open, then fixed): the gold is the one
  that holds at the moment asked;
- or **nothing**: ordinary requests ("undo that last change", "린트 경고 고쳐줘"),
  questions the memory cannot answer, and near misses that share its words ("what port
  does the redis container listen on?").

The set is split in halves by a seeded rule (:func:`half`): whole questions (all the
wordings of one gold) go to one half, alternating within each kind of gold after a seeded
shuffle, and the no-answer prompts alternate within each category the same way; ``tune``
may be looked at while changing the product, ``check`` is the held-out half.
"""

# Prompts are written as people type them: long lines.

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

import livedmonth
from livedmonth import FACTS_BY_KEY, M, Matcher, Start

SEED = "artibot-memory/prompts-lived"
TUNE, CHECK = "tune", "check"


@dataclass(frozen=True)
class Target:
    """A memory a prompt wants: its matcher, and when it holds (a fact's window).

    ``fact``: the :data:`livedmonth.FACTS` row whose window it shares; ``summaries``:
    whether a session summary holding it counts (only for what may live nowhere else).
    """

    key: str
    match: Matcher
    fact: str
    summaries: bool = False

    def holds_before(self, number: int) -> bool:
        return FACTS_BY_KEY[self.fact].holds_before(number)


def _same(key: str, *, summaries: bool = False) -> Target:
    """The target of a fact whose statement is the memory itself."""
    return Target(key, FACTS_BY_KEY[key].match, key, summaries)


ACL = "acl|unsupported argument"
ROUNDING = "rounding|test_partial_refund_rounding|3.34"
WISHLIST = "wishlist|reading 'length'"
TARGETS: dict[str, Target] = {
    t.key: t
    for t in (
        *(
            _same(key)
            for key in (
                "pref-pnpm",
                "pref-commit-en",
                "pref-commit-ko",
                "pref-reply-ko",
                "pref-api-lint",
                "pref-shop-exports",
                "pref-infra-apply",
                "dec-postgres",
                "dec-argon2",
                "dec-mkdocs",
                "dec-tf-state",
                "dec-webhook-raw",
                "dec-zustand",
                "fact-port",
                "fact-render",
                "fact-fly",
                "fact-webhook-path",
                "fact-pages",
                "fact-regions",
                "person-sara",
                "person-priya",
                "person-minsu",
                "person-jieun",
            )
        ),
        _same("todo-e2e", summaries=True),
        _same("todo-rollback", summaries=True),
        Target(
            "fix-ts2322",
            M(
                "ts2322|'undefined' is not assignable",
                "??|default*|empty string|빈 문자열|fallback",
            ),
            "fix-ts2322",
        ),
        Target(
            "fix-pg",
            M("5432|connection refused|operationalerror", "5433|database_url|.env.test"),
            "fix-pg",
        ),
        Target("open-acl", M(ACL), "open-acl"),
        Target(
            "fix-acl",
            M(ACL, "aws_s3_bucket_acl|acl.tf|ownership|separate resource|own resource"),
            "fix-acl",
        ),
        Target("open-rounding", M(ROUNDING), "open-rounding"),
        Target("fix-rounding", M(ROUNDING, "round_half_up|half up|half-up"), "fix-rounding"),
        Target(
            "fix-tokens", M("tokens.md", "docs/tokens.md|added|created|wrote|추가"), "fix-tokens"
        ),
        Target(
            "fix-coupon-copy",
            M("invalid coupon code|invalid code", "couponinput.tsx|aligned"),
            "fix-coupon-copy",
        ),
        Target("open-wishlist", M(WISHLIST), "open-wishlist"),
        Target("fix-wishlist", M(WISHLIST, "([])|empty array|빈 배열"), "fix-wishlist"),
    )
}


@dataclass(frozen=True)
class Question:
    """One thing asked in several wordings: its gold targets (by when they hold), its project.

    ``project`` None: asked from any project (a global preference).
    """

    kind: str
    targets: tuple[str, ...]
    project: str | None
    en: tuple[str, ...]
    ko: tuple[str, ...]


def _q(
    kind: str, targets: str, project: str | None, en: tuple[str, ...], ko: tuple[str, ...]
) -> Question:
    return Question(kind, tuple(targets.split()), project, en, ko)


QUESTIONS: tuple[Question, ...] = (
    # preferences
    _q(
        "preference",
        "pref-pnpm",
        None,
        (
            "wait which package manager do i want here again",
            "should i just npm install this?",
            "can I use yarn for the new workspace or no",
        ),
        (
            "패키지 매니저 뭐 쓰기로 했었지?",
            "npm install 해도 돼?",
            "의존성 설치 뭘로 하라고 했더라",
        ),
    ),
    _q(
        "preference",
        "pref-commit-en pref-commit-ko",
        None,
        (
            "what language should the commit msg be in",
            "commit messages, english or korean?",
            "remind me the rule for commit messages",
        ),
        (
            "커밋 메시지는 어떤 언어로 써야 해?",
            "커밋 메세지 영어로 써도 되나?",
            "커밋 메시지 규칙 뭐였지",
        ),
    ),
    _q(
        "preference",
        "pref-commit-en pref-commit-ko",
        None,
        (
            "commit this, msg in whatever language we agreed on",
            "can you write the commit message in english this time, is that ok?",
            "whats the commit message language convention again",
        ),
        (
            "커밋해줘, 메시지는 정한 언어로",
            "이번 커밋 메시지 영어로 써도 괜찮나?",
            "커밋 메시지 언어 바꿨었나?",
        ),
    ),
    _q(
        "preference",
        "pref-reply-ko",
        None,
        (
            "what language do i want your replies in",
            "how did I ask you to answer me, language wise?",
            "should you be replying in english or not",
        ),
        (
            "내가 답변 어떻게 해달라고 했었지?",
            "답변 언어 설정 뭐였더라",
            "설명은 한국어로 해주는 거 맞지?",
        ),
    ),
    _q(
        "preference",
        "pref-api-lint",
        "api",
        (
            "what checks do i want before you call it done here?",
            "anything i need to run before saying this is finished?",
            "which linters does this repo want me to run",
        ),
        (
            "끝났다고 하기 전에 뭐 돌려야 하지?",
            "이 레포 완료 전에 체크할 거 있었나",
            "린트랑 타입체크 뭐로 하기로 했지",
        ),
    ),
    _q(
        "preference",
        "pref-shop-exports",
        "shop",
        (
            "can i do export default for the new component?",
            "default or named export in this codebase?",
            "how do we export components here",
        ),
        (
            "새 컴포넌트 default export로 해도 돼?",
            "여기 export 방식 정해진 거 있었지?",
            "named export만 쓰는 거 맞나",
        ),
    ),
    _q(
        "preference",
        "pref-infra-apply",
        "infra",
        (
            "can i just run terraform apply from my machine",
            "ok the plan looks good, should i apply it locally?",
            "who runs apply for this repo",
        ),
        (
            "로컬에서 terraform apply 돌려도 돼?",
            "apply는 어디서 하기로 했지?",
            "플랜 괜찮은데 내 노트북에서 적용해도 되나",
        ),
    ),
    # decisions
    _q(
        "decision",
        "dec-postgres",
        "api",
        (
            "why did we pick postgres for orders again?",
            "which db do orders live in and why",
            "remind me why not mysql for the orders table",
        ),
        (
            "주문 DB 왜 포스트그레스로 했었지?",
            "orders 테이블 DB 선택 이유가 뭐였더라",
            "주문 데이터 저장소 고른 이유 알려줘",
        ),
    ),
    _q(
        "decision",
        "dec-argon2",
        "api",
        (
            "what are we hashing passwords with?",
            "bcrypt or argon2, what did we land on?",
            "why not bcrypt for the password hashes",
        ),
        (
            "비번 해시 뭐로 하기로 했지?",
            "bcrypt 안 쓰는 이유가 뭐였지?",
            "패스워드 해싱 알고리즘 정한 거 있었나",
        ),
    ),
    _q(
        "decision",
        "dec-mkdocs",
        "docs",
        (
            "why mkdocs and not docusaurus again?",
            "what static site generator did we choose for the docs",
            "docs tooling decision, what was it",
        ),
        (
            "문서 사이트 뭘로 만들기로 했지?",
            "docusaurus 안 쓰기로 한 이유 뭐였더라",
            "mkdocs 고른 이유가 뭐였지",
        ),
    ),
    _q(
        "decision",
        "dec-tf-state",
        "infra",
        (
            "where does the terraform state live",
            "do we have state locking set up?",
            "why dynamodb in the backend config",
        ),
        (
            "테라폼 state 어디에 저장하기로 했지?",
            "state 잠금 어떻게 하기로 했었지",
            "백엔드 설정 왜 그렇게 했더라",
        ),
    ),
    _q(
        "decision",
        "dec-webhook-raw",
        "api",
        (
            "how are we verifying the stripe signature?",
            "should i parse the json before checking the webhook sig?",
            "webhook signature check, raw body or parsed?",
        ),
        (
            "웹훅 서명 검증 어떻게 하기로 했지?",
            "서명 확인할 때 json 파싱하고 해도 돼?",
            "stripe 서명 검증 원본 바디로 하는 거 맞지?",
        ),
    ),
    _q(
        "decision",
        "dec-zustand",
        "shop",
        (
            "what are we using for cart state now?",
            "why did we move off react context for the cart",
            "is the cart still on context or something else",
        ),
        (
            "장바구니 상태 관리 뭐로 바꿨지?",
            "왜 context에서 다른 걸로 갈아탔더라",
            "카트 상태 라이브러리 뭐 쓰기로 했어?",
        ),
    ),
    # facts
    _q(
        "fact",
        "fact-port",
        "api",
        (
            "what port is the local postgres on",
            "db connection string port for local?",
            "is postgres on the default port here",
        ),
        ("로컬 포스트그레스 포트 몇이야?", "로컬 DB 포트 뭐였지", "디비 5432 맞아?"),
    ),
    _q(
        "fact",
        "fact-render fact-fly",
        "api",
        (
            "where is staging hosted",
            "how do i deploy to staging",
            "which platform runs staging right now",
        ),
        ("스테이징 어디에 떠 있어?", "스테이징 배포 어떻게 해?", "스테이징 서버 뭐 쓰고 있지"),
    ),
    _q(
        "fact",
        "fact-webhook-path",
        "shop",
        (
            "where's the stripe webhook handler",
            "which folder has the webhook code",
            "where do i add a handler for a new stripe event",
        ),
        (
            "스트라이프 웹훅 핸들러 어디 있어?",
            "웹훅 코드 어느 폴더에 있지",
            "결제 이벤트 처리하는 코드 위치가 어디였지",
        ),
    ),
    _q(
        "fact",
        "fact-pages",
        "docs",
        (
            "how do the docs get deployed",
            "where is the docs site hosted",
            "do i need to deploy the docs by hand after merging",
        ),
        ("문서 배포 어떻게 돼?", "문서 사이트 호스팅 어디야", "머지하면 문서 자동으로 올라가?"),
    ),
    _q(
        "fact",
        "fact-regions",
        "infra",
        (
            "which aws region is prod in",
            "staging region?",
            "what region should the new prod bucket go in",
        ),
        ("프로드 리전 어디야?", "스테이징은 무슨 리전이었지", "운영 환경 aws 리전 뭐였더라"),
    ),
    _q(
        "fact",
        "fact-regions",
        "infra",
        (
            "is staging in the same region as prod?",
            "eu-central or eu-west for staging, which one",
            "where should i put the new staging queue, region wise",
        ),
        (
            "스테이징이랑 프로드 리전 같아?",
            "새 리소스 프로드면 어느 리전에 만들어야 해?",
            "리전 어디 어디 쓰고 있지?",
        ),
    ),
    # people
    _q(
        "person",
        "person-sara",
        "shop",
        (
            "who owns the cart module",
            "can i rename the exports in src/cart?",
            "who should i check with before changing the cart api",
        ),
        (
            "장바구니 모듈 담당자 누구야?",
            "cart 모듈 export 이름 바꿔도 돼?",
            "카트 API 바꾸기 전에 누구한테 물어봐야 해",
        ),
    ),
    _q(
        "person",
        "person-priya",
        "infra",
        (
            "who do i ask about vpc changes",
            "can i touch the vpc module today?",
            "vpc module owner?",
        ),
        ("VPC 모듈 수정하려면 누구한테 물어봐야 해?", "vpc 건드려도 되나?", "VPC 담당 누구였지"),
    ),
    _q(
        "person",
        "person-minsu",
        "api",
        (
            "who approves releases",
            "can i tag the release myself?",
            "who signs off on a new version",
        ),
        ("릴리스 승인 누가 해?", "태그 그냥 달아도 돼?", "새 버전 내기 전에 누구 확인 받아야 하지"),
    ),
    _q(
        "person",
        "person-jieun",
        "docs",
        (
            "who reviews docs PRs",
            "who should i add as reviewer for the docs change",
            "docs review, who's on it",
        ),
        (
            "문서 PR 리뷰어 누구로 넣어?",
            "문서 리뷰 누가 해주기로 했지",
            "이 문서 PR 누구한테 리뷰 받아야 돼",
        ),
    ),
    # errors: what it was, how it was fixed
    _q(
        "error",
        "fix-ts2322",
        "shop",
        (
            "tsc is complaining about string | undefined in discount.ts again",
            "the discount type error, how did we fix it last time?",
            "getting TS2322 on coupon.code, seen this before?",
        ),
        (
            "discount.ts에서 타입 에러 또 나는데 전에 어떻게 고쳤지?",
            "TS2322 에러 예전에 해결한 적 있지?",
            "coupon.code undefined 타입 오류 해결법 뭐였더라",
        ),
    ),
    _q(
        "error",
        "fix-pg",
        "api",
        (
            "tests say connection refused on 5432, what was the fix",
            "pytest can't reach postgres, have we seen this?",
            "psycopg OperationalError connection refused again",
        ),
        (
            "테스트가 DB 연결 거부로 실패해, 전에 어떻게 했더라?",
            "pytest 돌리면 connection refused 나와",
            "디비 연결 안 되는 에러 예전에 고친 방법 알려줘",
        ),
    ),
    _q(
        "error",
        "open-acl fix-acl",
        "infra",
        (
            "what was the acl error on the assets bucket about?",
            "terraform says acl is not expected here, how do we handle that?",
            "how did we fix the unsupported argument acl thing",
        ),
        (
            "assets 버킷 acl 에러 뭐였지?",
            "테라폼에서 acl 인자 지원 안 된다는 에러 어떻게 처리했어?",
            "Unsupported argument 에러 해결 방법 뭐였지",
        ),
    ),
    _q(
        "error",
        "open-rounding fix-rounding",
        "api",
        (
            "the refund rounding test, what's going on with it?",
            "test_partial_refund_rounding failing, seen it before?",
            "what did we do about the rounding assertion in the refunds tests",
        ),
        (
            "환불 반올림 테스트 어떻게 됐어?",
            "부분 환불 라운딩 테스트 실패하는 거 뭐였지?",
            "환불 라운딩 테스트 예전에 고쳤나?",
        ),
    ),
    _q(
        "error",
        "fix-tokens",
        "docs",
        (
            "mkdocs strict build fails on a missing link, what did we do last time",
            "build aborted in strict mode because of a link, seen that?",
            "the tokens.md link warning again",
        ),
        (
            "mkdocs strict 빌드가 링크 때문에 실패해, 전에 어떻게 했지?",
            "문서 빌드 링크 경고로 중단됐어",
            "tokens.md 없다는 경고 또 나와",
        ),
    ),
    _q(
        "error",
        "fix-coupon-copy",
        "shop",
        (
            "CouponInput test fails on the error message text, what was it last time",
            "the invalid coupon code assertion is failing",
            "coupon input error state test broke, seen before?",
        ),
        (
            "쿠폰 입력 에러 문구 테스트 또 깨졌어",
            "Invalid coupon code 테스트 실패 전에 어떻게 고쳤지",
            "쿠폰 인풋 테스트 에러 메시지 불일치 해결법?",
        ),
    ),
    _q(
        "error",
        "open-wishlist fix-wishlist",
        "shop",
        (
            "wishlist test is red, reading 'length' of undefined",
            "what's wrong with the wishlist page test?",
            "how did we fix the wishlist empty state crash",
        ),
        (
            "위시리스트 테스트 length 에러 나",
            "위시리스트 빈 상태 테스트 왜 실패해?",
            "위시리스트 undefined 에러 어떻게 고쳤더라",
        ),
    ),
    # "next time …"
    _q(
        "todo",
        "todo-e2e",
        "shop",
        (
            "was there something we said we'd test for checkout?",
            "any follow ups left on the checkout button work?",
            "did we ever write that empty cart e2e?",
        ),
        (
            "체크아웃 관련해서 남은 할 일 있었지?",
            "빈 장바구니 e2e 테스트 하기로 한 거 했나?",
            "checkout 쪽 다음에 하기로 한 거 뭐였지",
        ),
    ),
    _q(
        "todo",
        "todo-rollback",
        "docs",
        (
            "what was left to add to the deploy guide?",
            "anything pending for the docs deploy page?",
            "did we want a rollback section somewhere?",
        ),
        (
            "배포 가이드에 추가하기로 한 거 뭐였지?",
            "문서 할 일 남은 거 있어?",
            "롤백 절차 어디에 쓰기로 했더라",
        ),
    ),
)

# Prompts with nothing to recall: (category, text).
NOTHING: tuple[tuple[str, str], ...] = (
    *(
        ("task", text)
        for text in (
            "rename this hook to useCartTotals",
            "add a loading spinner to that button",
            "ok now write the test for that",
            "can you split this function in two",
            "looks good, ship it",
            "undo that last change pls",
            "make the error message a bit friendlier",
            "add a docstring to the function you just wrote",
            "extract that into a helper",
            "show me the diff first",
            "why is this loop so slow",
            "add type hints to these functions",
            "move the constants to the top of the file",
            "run the tests again and only show failures",
            "the variable names here are confusing, clean them up",
            "convert these callbacks to async/await",
            "add a --dry-run flag to the script",
            "that's wrong, it should sort descending",
            "이 함수 이름 좀 더 명확하게 바꿔줘",
            "방금 그거 되돌려줘",
            "테스트 하나 더 추가해줘 빈 입력 케이스로",
            "이 파일 포맷 좀 맞춰줘",
            "에러 메시지 좀 친절하게 바꿔줘",
            "디버그 로그 지워줘",
            "diff 먼저 보여줘",
            "상수는 파일 위쪽으로 올려줘",
            "이거 비동기로 바꿀 수 있어?",
            "주석 좀 정리해줘",
            "중첩된 if 문 좀 단순하게 만들어줘",
            "린트 경고 고쳐줘",
            "테스트 다시 돌려서 실패한 것만 보여줘",
            "이 컴포넌트 두 개로 쪼개줘",
            "변수 이름이 헷갈려, 정리해줘",
            "매직 넘버 상수로 빼줘",
            "README에 설치 방법 한 줄 추가해줘",
            "add a comment explaining the regex",
            "make this component accept a className prop",
        )
    ),
    *(
        ("unanswerable", text)
        for text in (
            "what's our redis eviction policy?",
            "which node version does CI use?",
            "who designed the logo?",
            "what's the max upload size on the api?",
            "do we rate limit the login endpoint?",
            "what's the sentry dsn env var called?",
            "did we ever set up dependabot?",
            "how long do sessions last before logout?",
            "is there a staging database backup schedule?",
            "what's the font we use for headings?",
            "do we support apple pay yet?",
            "레디스 만료 정책 뭐였지?",
            "CI에서 노드 버전 몇 써?",
            "로그인 시도 제한 걸어놨어?",
            "업로드 최대 크기 얼마로 했지?",
            "세션 만료 시간 몇 분이야?",
            "센트리 설정 어디 있어?",
            "디자인 시스템 담당자 누구야?",
            "쿠폰 최대 할인율 정해둔 거 있어?",
            "모바일 앱 출시 일정 정해졌어?",
            "사내 VPN 설정 방법 알아?",
        )
    ),
    *(
        ("near-miss", text)
        for text in (
            "what port does the redis container listen on?",
            "who owns the checkout module?",
            "how did we fix the CORS error on the api?",
            "did we decide on a queue for sending emails?",
            "which webhook events does the slack bot listen to?",
            "why did we drop redux from the admin panel?",
            "how do we deploy the worker service?",
            "레디스 포트 몇 번이야?",
            "결제 모듈 담당자 누구야?",
            "CORS 에러 예전에 어떻게 고쳤지?",
            "이메일 발송 큐 뭐 쓰기로 했지?",
            "관리자 페이지 상태 관리 뭐 써?",
            "워커 서비스 배포 어떻게 해?",
            "슬랙 알림 웹훅 주소 어디 있어?",
        )
    ),
)


@dataclass(frozen=True)
class Prompt:
    """One prompt of the set: its words, language, where and when it is asked, its gold."""

    text: str
    lang: str
    kind: str  # a Question's kind, or "none"
    category: str  # the question's first target, or the no-answer category
    start: Start
    gold: tuple[str, ...]  # the targets that hold then (empty: nothing to recall)
    half: str


def language(text: str) -> str:
    """``ko`` when the text holds Hangul, else ``en``."""
    return "ko" if any("가" <= ch <= "힣" for ch in text) else "en"


def _where(rng: random.Random, project: str | None, targets: tuple[str, ...]) -> Start:
    """A start of ``project`` (any, when None) at which one of ``targets`` holds."""
    fits = [
        s
        for s in livedmonth.starts()
        if (project is None or s.project == project)
        and any(TARGETS[t].holds_before(s.before) for t in targets)
    ]
    if not fits:
        raise LookupError(f"no start for {targets}")
    return fits[rng.randrange(len(fits))]


@cache
def half() -> dict[str, str]:
    """Each question (by its first target) and no-answer prompt: its half (seeded rule)."""
    rng = random.Random(f"{SEED}/split")
    chosen: dict[str, str] = {}
    groups: dict[str, list[str]] = {}
    for question in QUESTIONS:
        groups.setdefault(question.kind, []).append(question.targets[0])
    for category, text in NOTHING:
        groups.setdefault(f"none:{category}", []).append(text)
    for members in groups.values():
        order = sorted(members)
        rng.shuffle(order)
        for index, member in enumerate(order):
            chosen[member] = (TUNE, CHECK)[index % 2]
    return chosen


@cache
def prompts() -> tuple[Prompt, ...]:
    """The whole set, each prompt placed at a start by a seeded draw of its own."""
    out: list[Prompt] = []
    halves = half()
    for question in QUESTIONS:
        for text in (*question.en, *question.ko):
            start = _where(random.Random(f"{SEED}/{text}"), question.project, question.targets)
            gold = tuple(t for t in question.targets if TARGETS[t].holds_before(start.before))
            name = question.targets[0]
            out.append(Prompt(text, language(text), question.kind, name, start, gold, halves[name]))
    every = livedmonth.starts()
    for category, text in NOTHING:
        start = every[random.Random(f"{SEED}/{text}").randrange(len(every))]
        out.append(Prompt(text, language(text), "none", category, start, (), halves[text]))
    return tuple(out)
