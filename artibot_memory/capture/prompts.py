"""What a user's prompt says about memory: slash commands, stated preferences, project facts.

Standard library only: UserPromptSubmit runs on every prompt, and most prompts hold
nothing to remember, so the hook decides here, cheaply, whether the stores are needed.

A prompt is read sentence by sentence, after what is not the user's own words is taken
out: fenced code, blockquotes (``>``), pasted log and code lines, tagged blocks
(``<system-reminder>``) and quoted phrases of three words or more. Then each sentence is:

- nothing when it holds a secret marker (``[REDACTED:``), asks a question, or is limited
  to the task at hand ("for this call", "in this PR", "for now", "이번 PR에서는", "일단");
- a request to remember ("remember that …", "keep in mind …", "기억해 줘"): what follows
  is a preference when it says how to work, else a fact of the project (a *context*);
- a rule about future behaviour ("from now on …", "always …", "never …", "앞으로 …",
  "항상 …", "절대 … 하지 마"): an **active** preference at once;
- a liking ("I prefer …", "I'd rather …", "I like …", "…가 좋아", "선호해"): a **pending**
  preference, which becomes active when stated in a second session (seed 003);
- a project fact in a shape that needs no request ("staging is deployed with …", "the API
  lives in services/api", "the db is on port 5433", "the staging DB is Postgres 15", "we
  deploy on Fridays only", "staging runs on fly.io", "스테이징 DB는 Postgres 15야"), or
  said in passing after an aside ("FYI, the payments webhook lives in services/hooks",
  "btw staging runs on port 8443", "참고로 스테이징은 fly.io로 배포해"): a context of the
  project, the aside left out (:func:`project_fact`); not a hypothetical ("if the DB were
  …", "만약 …라면"), a pronoun's passing state ("btw it's failing again"), the moment's
  news ("the DB is down", "어제 배포 실패했어"), a task in passing ("btw X needs a retry")
  or someone else's words ("…라고 되어 있는데");
- a standing fact about a person, read first (:mod:`artibot_memory.capture.people`: "Sara
  owns the billing service", "ask Tom before touching the payments schema", "billing
  questions go to Sara", "지민 님이 결제 담당이에요", "릴리스는 민수 님이 승인해요"): a context
  of scope ``person``, tagged ``person:<name>``, kept with what it means for the work.

A preference is **project**-scoped when it names this repository ("in this repo", "here",
"이 프로젝트에서") and no wider place ("in all my projects", "전역으로"); otherwise global.
Its ``key`` names its subject (:mod:`artibot_memory.text.subjects`): a later statement on
the same subject supersedes it. A bare instruction with none of these markers ("use pnpm
to install the deps", "don't change the public API") is a task, not a preference.

>>> [found] = detect_preferences("From now on always use pnpm")
>>> found.kind, found.strength, found.scope, found.key
('preference', 'active', 'global', 'package-manager')
>>> [(d.kind, d.text) for d in detect_preferences("Remember that the db is on port 5433.")]
[('context', 'the db is on port 5433')]
>>> detect_preferences("Why does the build always fail?")
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from artibot_memory.capture import people
from artibot_memory.text.subjects import subject_key

TYPE_CHECKING = False  # typing costs an import on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

MAX_PREFERENCE_CHARS = 300
MAX_PROMPT_CHARS = 8_000
MAX_SENTENCE_CHARS = 600  # longer is pasted text, not a statement; and it bounds the regexes
MAX_FOUND = 10  # per prompt: a pasted list of a hundred rules is not a hundred memories
MIN_QUOTED_WORDS = 3  # a quoted phrase this long is someone's words; "pnpm" in quotes is a name
MIN_FACT_WORDS = 3  # after an aside, in English ("staging uses 8443"); Korean one fewer
# Every pattern below needs one of these in the (lower-cased) prompt: a prompt without any,
# most prompts, is answered without compiling a pattern. tests/test_prompts.py checks that
# nothing the patterns find in the labelled sets lacks an anchor.
_ANCHORS = tuple(
    (
        "remember|mind|forget|note|reference|record|from now|from here|forward|henceforth"
        "|hereafter|future|default|rule|every time|each time|whenever|next time|always|never"
        "|ever|circumstances|matter|stop|times|exception|prefer|rather|go-to|favo|like|love"
        "|enjoy|hate|t stand|fan of|usually|normally|typically|generally|mostly|tend to|find"
        "|i use|we use|work with|go with|stick|code in|deploy|live|resid|sit|locat|kept"
        "|stored|port|hosted|기억|잊지|명심|메모|앞으로|이제부터|지금부터|다음부터|항상|언제나"
        "|늘|매번|무조건|절대|반드시|기본적|경우에도|계속|선호|좋|편|나아|낫|싫|별로|주로|보통"
        "|평소|대체로|배포|포트|호스팅|에 있|에있|에 들|에들"
        # facts in passing, and said plainly (_ASIDE, _FACT); a part of the stack only with
        # what follows it ("db is", "서버는"): "api" or "server" alone opens many a task
        "|fyi|btw|by the way|heads up|heads-up|for context|just so you know|jsyk|p.s|참고"
        "|덧붙|알아 둬|알아둬|알아 두|runs on|running on| is in | are in | is under | are under"
        "|we release|we ship|we publish|we only|we cut|releases |릴리|에서 돌아|위에서 돌아"
        "|떠 있|떠있"
    ).split("|")
)  # and a person's words: people.mentions (may_hold)
# the parts of the stack a plain fact names first ("the staging DB is Postgres 15")
_PART_WORDS = (
    "db database datastore cache queue broker backend frontend api server cluster runtime orm"
    " ci pipeline registry cdn proxy gateway stack"
).split()
_KO_PART_WORDS = (
    "db 디비 데이터베이스 캐시 큐 서버 백엔드 프론트 프론트엔드 api ci 클러스터 런타임 orm"
    " 레지스트리 프록시 게이트웨이 스택"
).split()
_ANCHORS += tuple(f"{part} {verb}" for part in _PART_WORDS for verb in ("is ", "runs ", "uses "))
_ANCHORS += tuple(f"{part}{particle}" for part in _KO_PART_WORDS for particle in ("는", "은"))


class _Lazy:
    """A regular expression compiled on its first use, once per process.

    The hook's fast path runs this module on every prompt, in a new process: compiling
    every pattern up front cost more than reading the prompt, and a prompt that names no
    trigger word (:data:`_ANCHORS`) needs none of them.
    """

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source, self.flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)

    def sub(self, replacement: str | Callable[[re.Match[str]], str], text: str) -> str:
        return self.compiled.sub(replacement, text)

    def split(self, text: str) -> list[str]:
        return self.compiled.split(text)


_I = re.IGNORECASE | re.ASCII  # ASCII \b: "pnpm을" ends a word at the particle
_SLASH = _Lazy(r"^\s*/([A-Za-z][\w:.-]{0,63})(?=\s|$)")
_SENTENCES = _Lazy(r"(?<=[.!?。])\s+|\n+")
_BULLET = _Lazy(r"^(?:[-*•]|\d{1,2}[.)])\s+")
_LEAD = (  # what may open a sentence before its first word: "Also, please remember …"
    r"^(?:(?:also|and|but|so|then|oh|ok|okay|btw|by\s+the\s+way|one\s+more\s+thing|please|pls"
    r"|hey|again|finally)\b[\s,:]*)*"
)

# --- what is not the user's own prose --------------------------------------------------
_FENCE = _Lazy(r"^[ \t]*(```|~~~)[^\n]*\n.*?(?:^[ \t]*\1[^\n]*$|\Z)", re.MULTILINE | re.DOTALL)
_OPENING_TAG = _Lazy(r"<([A-Za-z][\w-]{0,40})(?:\s[^<>]{0,200})?>")
_CLOSING_TAG = _Lazy(r"</([A-Za-z][\w-]{0,40})\s*>")
_QUOTED = _Lazy(
    r"\"([^\"\n]{3,400})\"|“([^”\n]{3,400})”|「([^」\n]{3,400})」|『([^』\n]{3,400})』"
    r"|«([^»\n]{3,400})»|(?<![\w'])'([^'\n]{3,400})'(?![\w'])"
)
_PASTED_LINE = _Lazy(
    r"^\s*>"  # a blockquote
    r"|^(?:\t| {4,})\S"  # indented code or output
    r"|^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|^\s*\[?\d{1,2}:\d{2}:\d{2}\b"  # timestamps
    r"|^\s*\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)\b"
    r"|^\s*(?:error|warning)(?:\[[\w-]+\])?:\s|^\s*npm (?:ERR!|WARN|notice)\b"
    r"|^\s*Traceback \(|^\s*File \"[^\"]+\", line \d+|^\s*at \S+ \(?\S*:\d+"
    r"|^\s*\d+:\d+\s+(?:error|warning)\b|^\s*[\w./-]+\.\w{1,5}:\d+\b"
    r"|^\s*[A-Z]\w*(?:Error|Exception|Warning):\s|^\s*(?:E|W|F)\s{2,}\S"
    r"|^\s*(?:FAIL|PASS|FAILED|PASSED)\s|^\s*[$❯%]\s+\S"
    r"|^\s*(?:def|class|fn|func|function)\s+\w+\s*[(:<]|^\s*(?:const|let|var)\s+\w+\s*="
    r"|^\s*(?:from\s+[\w.]+\s+)?import\s+[\w.]+(?:\s+as\s+\w+)?\s*$|^\s*#include\b"
    r"|[;{]\s*$|^\s*[}\]]|^\s*[{\[]\s*[\"{\[]"
)

# --- nothing to keep ------------------------------------------------------------------
_QUESTION = _Lazy(
    _LEAD + r"(?:what|why|how|which|who|whose|where|is|are|was|were|does|did|can|could|would|"
    r"should|shall|will|am|do(?!\s+not\b|n't\b|\s+never\b))\b"
    r"|(?:까요?|나요|니|냐|는지|을까|습니까|인가요?|뭐야|뭐지|어때)\s*$",
    _I,
)
_KO_WHY = _Lazy(r"(?:^|\s)(?:왜|뭐|무엇|어떻게|어디|누가)(?:\s|$)")  # not 몇: "몇 가지"
_ONE_OFF = _Lazy(
    r"\b(?:this\s+time|for\s+now|just\s+(?:this\s+)?once|this\s+once|today|tonight|right\s+now"
    r"|temporarily|for\s+the\s+(?:moment|time\s+being)|until\s+(?:tomorrow|the\s+next)"
    r"|\bthis\s+(?:PR|pull\s+request|MR|commit|change|changeset|call|request|task|ticket|issue"
    r"|function|method|module|class|file|test|run|branch|diff|patch|step|session|script|migration"
    r"|release|endpoint|page|component|install|query|bug|fix)"
    r"|(?:for|in)\s+(?:this|that)\s+one)\b"
    r"|이번(?:에|엔|만|\s*(?:PR|커밋|작업|세션|한\s*번|만))|이\s*(?:PR|커밋|파일|함수|호출|메서드|메소드|클래스|모듈|테스트)"
    r"|일단|지금은|오늘(?:은|만)?|당분간|임시로|한\s*번만",
    _I,
)
_REDACTION_MARK = "[REDACTED:"

# --- requests to remember ---------------------------------------------------------------
_REMEMBER = _Lazy(
    _LEAD + r"(?:just\s+so\s+you\s+remember|remember|keep\s+(?:(?:this|that)\s+)?in\s+mind"
    r"|bear\s+(?:(?:this|that)\s+)?in\s+mind|don't\s+forget|do\s+not\s+forget|never\s+forget"
    r"|note\s+for\s+(?:the\s+)?(?:future|later)|for\s+future\s+reference|make\s+a\s+note"
    r"|take\s+note|for\s+the\s+record)\b"
    r"(?:\s+(?:for\s+(?:the\s+)?(?:future|later)|going\s+forward))?"
    r"(?P<sep>\s+that\b|\s+to\b|\s*[:,;-]|\s+this\s*[:,-]?|\s+)\s*(?P<rest>.*)$",
    _I,
)
_KO_REMEMBER_FIRST = _Lazy(
    r"^(?:기억해\s*(?:줘|둬|주세요|두세요|놔)?|잊지\s*마(?:세요|요)?|명심해|메모해\s*둬)\s*[:,]?\s*(?P<rest>.+)$"
)
_KO_REMEMBER_LAST = _Lazy(
    r"^(?P<rest>.+?)[\s,]*(?:(?:이거|이건|이것|그거)\s*)?(?:꼭\s*|잘\s*)?"
    r"(?:기억해|기억해\s*줘|기억해\s*둬|기억해\s*주세요|기억해\s*두세요|기억하고\s*있어|잊지\s*마|명심해)"
    r"\s*(?:줘|둬|요|주세요)?[.!]?$"
)
_KO_REST_TAIL = _Lazy(r"(?<=[다라])는\s*(?:거|걸|것|점)(?:을|를)?\s*$|\s*(?:을|를|고)\s*$")
_POINTER = _Lazy(
    r"^(?:this|that|it|this\s+one|이거|이건|이것|그거|그것|이\s*점|줘|둬|주세요|두세요|놔|요)$", _I
)
_HABIT = _Lazy(r"\b(?:before|after|whenever|every|each|when)\b", _I)
_RECALL_QUESTION = _Lazy(r"^(?:when|what|how|where|why|who|the\s+time)\b", _I)

# --- rules about future behaviour ---------------------------------------------------------
_FUTURE = _Lazy(
    r"\b(?:from\s+now\s+on|from\s+here\s+on(?:\s+out)?|going\s+forward|moving\s+forward|henceforth"
    r"|hereafter|in\s+future\s+sessions|in\s+all\s+future|for\s+all\s+future|from\s+this\s+point\s+on)\b"
    r"|(?:^|[\s,])(?:앞으로(?!\s*(?:가기|이동|나가|당겨))|이제부터|지금부터|다음부터|앞으로도)",
    _I,
)
_FUTURE_OPENING = _Lazy(
    _LEAD + r"(?:by\s+default|as\s+a\s+(?:general\s+)?rule|every\s+time|each\s+time|whenever"
    r"|next\s+time|in\s+(?:the\s+)?future)\b",
    _I,
)
_ALWAYS = _Lazy(
    r"(?:^|[,;:—–]\s*|\b(?:and|but|also|so|then|please|pls|just|ok|okay|let's|let\s+us)\s+)"
    r"(?:please\s+)?(?:always|never)\b(?!-)(?!\s+mind\b)(?:\s+ever\b)?\s*(?P<next>[\w'-]*)",
    _I,
)
_ORDER = _Lazy(
    r"\b(?:you|we|u)\s+(?:should|must|need\s+to|have\s+to|'ll|will|shall|are\s+to)\s+(?:always|never)\b"
    r"|\b(?:make\s+sure\s+(?:to|you)|be\s+sure\s+to|try\s+to|want\s+you\s+to|need\s+you\s+to"
    r"|like\s+you\s+to|remember\s+to|I(?:'d|\s+would)?\s+(?:like|want)\s+to"
    r"|(?:told|asked)\s+you\s+(?:\w+\s+){0,2}to)\s+(?:always|never)\b"
    r"|\b(?:don't|do\s+not|never)\s+ever\b|\bunder\s+no\s+circumstances\b|\bno\s+matter\s+what\b"
    r"|^(?:please\s+)?stop\s+(?:using|adding|writing|putting|running|creating|making|leaving|doing)\b",
    _I,
)
_LEADING_PLACE = _Lazy(
    r"^(?:(?:in|for|on|within|across)\s+(?:this|our|all|every|each|any)\s+(?:of\s+)?(?:my\s+)?[\w-]+"
    r"|here|everywhere|globally)\b\s*[,:]?\s*",
    _I,
)
_ALWAYS_AFTER = _Lazy(
    r"(?:,\s*|\s+)(?:always|at\s+all\s+times|without\s+exception|every\s+single\s+time)[.!]*$|,\s*ever[.!]*$",
    _I,
)
_I_ALWAYS = _Lazy(r"\b(?:I|we)\s+(?:always|never)\s+(?P<verb>\w+)", _I)
_KO_RULE = _Lazy(
    r"(?:항상(?!성)|언제나|(?<![가-힣])늘(?![가-힣])|매번|무조건|절대(?:로)?(?!\s*(?:값|경로|적|좌표|시간|위치))"
    r"|반드시|기본적으로|어떤\s*경우에도|앞으로\s*(?:계속|쭉))"
)
_KO_REQUEST_END = _Lazy(
    r"(?:줘|줘요|주세요|주십시오|해라|하라|하세요|하십시오|마|마라|마세요|말아|말고|말\s*것|할\s*것"
    r"|하자|합시다|부탁해|부탁해요|부탁드려요|부탁드립니다|바래|바람|작성|사용|기준)[.!]?$"
)
_KO_SUBJECT = _Lazy(r"(?<=[가-힣A-Za-z0-9)\]])(?<![같많없깊높길차])[이가](?=\s)")  # "빌드가 …"
_KO_DESCRIPTIVE = _Lazy(
    r"라고|다고|자고|냐고|는데|었는데|았는데|했는데|인데|되게\s*(?:고쳐|바꿔|수정|만들|해|구현|변경)|도록"
)

# --- likings ------------------------------------------------------------------------
_LIKING = _Lazy(
    r"\bI\s+(?:really\s+|much\s+|strongly\s+|generally\s+|personally\s+|usually\s+|also\s+|still\s+)?prefer\b"
    r"|\bI(?:'d|\s+would)\s+(?:much\s+|really\s+|still\s+)?(?:prefer|rather)\b(?!\s+not\b)"
    r"|\bmy\s+(?:personal\s+)?(?:preference|go-to|favou?rite)\b|\bpreferably\b"
    r"|\bI\s+(?:really\s+|also\s+)?(?:like|love|enjoy)\s+(?!it\b|this\b|that\b|these\b|those\b|how\b"
    r"|what\b|where\b|the\b|your\b|you\b|when\b|him\b|her\b|them\b)"
    r"|\bI\s+(?:don't|do\s+not|really\s+don't)\s+like\s+(?!this\b|that\b|the\b|how\b|what\b|your\b|it\b(?!\s+when))"
    r"|\bI\s+(?:dislike|hate|can't\s+stand)\b|\bI(?:'m|\s+am)\s+(?:not\s+)?(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\b"
    r"|\bI\s+(?:usually|normally|typically|generally|mostly|tend\s+to)\s+(?P<verb>\w+)"
    r"|\bI\s+find\s+(?!it\b|this\b|that\b)\S+(?:\s+\S+)?\s+(?:much\s+|a\s+lot\s+)?(?:easier|nicer|better|cleaner|clearer|faster|simpler|more\s+\w+)\b",
    _I,
)
_USES = _Lazy(r"\b(?:I|we)\s+(?:use|work\s+with|go\s+with|stick\s+(?:with|to)|code\s+in)\b", _I)
_KO_LIKING = _Lazy(
    r"선호|(?:좋아|좋더라|좋습니다|좋아해|좋아합니다|좋겠어|좋겠다|좋겠습니다|편해|편하더라|편합니다"
    r"|나아|낫더라|낫다|싫어|싫더라|별로야)(?!\s*보|졌|지|진)"
)
_KO_LIKING_OBJECT = _Lazy(
    r"(?:^|\s)(?:나는|저는|난|전|내|제|개인적으로)\s|보다|(?:게|는\s*게|편이)\s*(?:더\s*)?(?:좋|나|편)"
)
_KO_DEMONSTRATIVE = _Lazy(r"(?:^|\s)(?:이|그|저|이런|그런)\s*\S*(?:이|가)\s+(?:더\s*)?(?:좋|편|나)")
_KO_HABIT = _Lazy(r"(?:^|\s)(?:주로|보통|평소에?|대체로)\s")
_APPROVAL = _Lazy(r"^(?:좋아|좋아요|좋습니다|좋네|좋다)(?:[\s,.!]|$)")

# --- project facts ------------------------------------------------------------------
_DIR = r"`?(?:[\w.@-]+/)+[\w@-]*/?`?(?![\w./-]*\.\w{1,5}\b)"
_PART = f"(?:{'|'.join(_PART_WORDS)})"  # a part of the stack, named before what it is
_KO_PART = f"(?:{'|'.join(sorted(_KO_PART_WORDS, key=len, reverse=True))})"
_NOT_A_NAME = (
    r"(?:OK|okay|ready|done|down|up|fine|live|broken|empty|true|false|none|null|slow|fast)"
)
_PLATFORM = (
    r"[\w-]+\.(?:io|dev|app|cloud|com|net)\b|k8s\b|kubernetes\b|aws\b|gcp\b|azure\b|heroku\b"
    r"|vercel\b|netlify\b|fly\b|render\b|railway\b|ec2\b|ecs\b|eks\b|gke\b|lambda\b"
    r"|node\s*\d|python\s*\d"
)
_FACT = _Lazy(
    r"\b(?:is|are|gets?|was|were)\s+deployed\s+(?:\w+ly\s+)?(?:with|via|using|through|by|to|on|from)\b"
    r"|\b(?:we|you)\s+deploy\s+(?:with|via|using|through|by|to|on|from|every|each|once|twice"
    r"|weekly|daily|nightly|monthly)\b"
    r"|\bdeploys?\s+(?:with|via|using|through|happen|go|run)\b"
    rf"|\b(?:lives?|resides?|sits?)\s+(?:in|under|at)\s+{_DIR}"
    rf"|\b(?:is|are)\s+(?:located|kept|stored)\s+(?:in|under|at)\s+{_DIR}"
    r"|\b(?:is|are|runs?|listens?|serves?)\s+(?:on|at)\s+port\s+\d{2,5}\b"
    r"|\buses\s+port\s+\d{2,5}\b|\bhosted\s+(?:on|at|in|by)\b"
    r"|(?:으로|로)\s*배포|배포(?:는|할\s*때는?)\s*.{1,40}?(?:으로|로)\s*(?:해|한다|돼|합니다|해요)"
    r"|(?:[\w.-]+/[\w./-]*)\s*(?:폴더|디렉터리|디렉토리)?에\s*(?:있|들어)"
    r"|(?:폴더|디렉터리|디렉토리)에\s*있"
    r"|\d{2,5}\s*(?:번\s*)?포트|포트(?:는|를|로)?\s*\d{2,5}|호스팅(?:돼|되어|된다|해|하고)"
    # said plainly: what a part of the stack is, where it runs, when releases go out
    rf"|\b{_PART}\s+(?:is|runs\s+on|uses|is\s+on)\s+(?!{_NOT_A_NAME}\b)(?:(?-i:[A-Z])[\w.+-]*|v?\d+(?:\.\d+)*\b)"
    rf"|\b(?:runs|is\s+running|is\s+hosted)\s+on\s+(?!{_NOT_A_NAME}\b)(?:(?-i:[A-Z])[\w.+-]*|{_PLATFORM})"
    rf"|\b(?:is|are)\s+(?:in|under)\s+{_DIR}"
    r"|\b(?:we|they)\s+(?:only\s+)?(?:release|ship|publish|cut\s+releases?)\s+(?:only\s+)?"
    r"(?:on|every|each|once|twice|weekly|daily|nightly|monthly|from|through|via|with|to)\b"
    r"|\breleases?\s+(?:go\s+out|happen|ship|are\s+cut)\b"
    rf"|{_KO_PART}(?:는|은)\s*[A-Za-z][\w.+-]*(?:\s*v?\d[\w.]*)?\s*"
    r"(?:이야|야|입니다|이에요|예요|임|이다|(?:를|을)?\s*(?:써|씀|씁니다|사용해|사용합니다|사용함|사용\s*중))"
    r"|(?:배포|릴리스|릴리즈)(?:는|은)\s*.{0,20}?(?:요일|매주|매일|격주|매달|마다|일주일에|한\s*달에)"
    r"|[A-Za-z][\w.-]*\s*(?:에서|위에서)\s*(?:돌아|떠\s*있)",
    _I,
)
_HOW_TO_WORK = _Lazy(
    r"^(?:use|run|write|keep|put|add|format|lint|indent|name|prefix|reply|answer|respond|commit|push"
    r"|squash|rebase|merge|test|type-check|target|install|manage|open|give|ask|explain|leave|end"
    r"|wrap|stick|go|prefer|avoid|make|check|document|split|create|pin|sign|review|call|default"
    r"|work|code|develop|program"
    r"|follow|include|show|tell|don't|do\s+not|no|never|always|stop|only|pick|choose)\b"
    r"|\b(?:should|must|shouldn't|mustn't)\b",
    _I,
)
# An aside that introduces a fact in passing: "FYI, …", "btw …", "참고로 …" (what follows it)
_ASIDE = _Lazy(
    r"(?:^|[,;:—–]\s*|\s-\s|\s)(?:fyi|btw|by\s+the\s+way|heads[\s-]up|for\s+(?:reference|context"
    r"|your\s+information)|just\s+so\s+you\s+know|jsyk|note\s+that|note\s*:|side\s+note|p\.?s\.?)"
    r"(?![\w'])[\s,:-]*"
    r"|(?:^|[,.]\s*|\s)(?:참고로(?:\s*말하면)?|참고\s*:|덧붙이자면|알아\s*(?:둬|두세요|둬요)\s*[,:])\s*[,:]?\s*",
    _I,
)
# What states something about the project after an aside: a verb of a statement, in English
_STATEMENT = _Lazy(
    r"\b(?:is|are|'s|'re|has|have|lives|runs|uses|needs|requires|sits|goes|points|talks|calls"
    r"|reads|writes|returns|deploys|depends|belongs|happens|listens|serves|holds|stores|keeps"
    r"|contains|expects|means|takes|gets|ships|builds|connects|sends|handles|comes|supports"
    r"|need|require|run|live|sit|talk|point|depend|expect|take|go|come|read|write|return"
    r"|hold|store|contain|support|share)\b"
    r"|\bwe\s+(?:only\s+|always\s+|usually\s+)?(?:use|run|deploy|release|ship|keep|host|have|need"
    r"|store|build|test|pin|vendor|target|support)\b",
    _I,
)
_KO_STATEMENT_END = _Lazy(r"[다야요어아해돼써음임함됨든네지]\s*[.!]?$")
_KO_ASK = _Lazy(
    r"(?:줘|줘요|주세요|주십시오|해라|하라|하세요|하십시오|마|마라|마세요|말아|하자|합시다|봐|봐요"
    r"|부탁\S*|할\s*것)\s*[.!]?$"
)
_ORDER_OPENING = _Lazy(
    r"^(?:please|pls|can\s+you|could\s+you|would\s+you|let's|let\s+us|fix|update|change|remove"
    r"|delete|look|try|see|take|bump|revert|rename|move|refactor|implement|debug|find)\b",
    _I,
)
# What a fact is not: a hypothetical, a bare pronoun's passing state, the moment's news
_NOT_A_FACT = _Lazy(
    r"\b(?:if|unless|suppose|supposing|assuming|imagine|maybe|perhaps|might|could|would|should"
    r"|whether|in\s+case)\b|만약|만일|혹시|(?:다면|라면|으면|하면|되면|려면)(?:\s|,|$)"
    r"|^(?:i|i'm|i've|i'd|i'll|you|you're|you've|it|it's|there|there's|here|here's|he|she|they"
    r"|my|your)\b|^(?:this|that|these|those)\s+(?:is|are|was|were|'s|runs?|lives?|uses?|has|gets?)\b"
    r"|^(?:나는|난|저는|전|내가|제가|너는?|니가|이거|이건|그거|그건|저거|여기|거기)(?:\s|$)"
    r"|\b(?:is|are|was|were|'s|'re)\s+(?:still\s+|now\s+|currently\s+|all\s+)?(?:failing|broken|down"
    r"|crashing|erroring|hanging|stuck|red|fixed|done|merged|gone|timing\s+out|not\s+working"
    r"|changing|moving|going\s+away)\b|\b(?:broke|crashed|failed)\b"
    r"|\b(?:yesterday|tomorrow|last\s+(?:night|week|time)|next\s+week|earlier|just\s+now|this\s+morning"
    r"|at\s+the\s+moment|soon)\b"
    r"|^(?:the|this|that|a|an|our)?\s*(?:[\w-]+\s+){0,3}?(?:bugs?|errors?|issues?|problems?|failures?"
    r"|crash|typo|regression|fix|todo)\s+(?:is|are|was|were|lives?|sits?)\b"
    r"|\b(?:needs?|requires?)\s+(?:a|an|another|more|some|to|\w+ing)\b"  # a task, in passing
    r"|^(?:the\s+)?(?:failing|broken|crashing|erroring|flaky)\b"
    r"|어제|내일|아까|방금|깨져|깨졌|실패|터졌|죽었|죽어|(?:에러|오류)\s*(?:나|가|났)|안\s*(?:돼|됨|되)|느려"
    r"|(?:라|다)고\s",  # reported speech: someone else's words
    _I,
)

# --- where it applies ("everywhere" alone may mean all over this codebase) --------------
_EVERYWHERE = _Lazy(
    r"\b(?:globally|in\s+(?:all|every|each|any)\s+(?:of\s+)?(?:my\s+)?(?:projects?|repos?"
    r"|repositories|codebases?)|across\s+(?:all|every|each)\s+(?:of\s+)?(?:my\s+)?(?:projects?|repos?"
    r"|repositories|codebases?)|not\s+just\s+(?:in\s+)?(?:this|here))\b"
    r"|전역|모든\s*(?:프로젝트|레포|리포|저장소)|어느\s*(?:프로젝트|레포|저장소)(?:에서)?(?:든|나)|어디서(?:나|든)",
    _I,
)
_HERE = _Lazy(
    r"\b(?:in|for|on|within|across|inside)\s+(?:this|our)\s+(?:repo|repository|project|codebase|code\s+base"
    r"|monorepo|package|workspace|app|service|library)\b"
    r"|\bthis\s+(?:repo|repository|project|codebase|library)(?:'s)?\b"
    r"|\bour\s+(?:repo|repository|codebase)\b"
    r"|(?<!from\s)\bhere\b(?!['’]s|\s+(?:is|are|was|were|on|and)\b)"
    r"|이\s*(?:프로젝트|레포|리포|저장소|코드베이스|repo|모노레포)|여기(?:서|에서|선)|우리\s*(?:프로젝트|레포|저장소)",
    _I,
)


@dataclass(frozen=True)
class Detected:
    """One thing a prompt asks to keep.

    ``kind``: ``preference`` or ``context`` (a fact of the project); ``strength``:
    ``active`` (a rule, or asked to remember) or ``pending`` (a liking, until seen again);
    ``scope``: ``global``, ``project`` or ``person`` (a fact about someone); ``key``: the
    subject (:mod:`artibot_memory.text.subjects`) or None; ``why``: what made it one;
    ``tags``: ``person:<name>`` for a fact about a person.
    """

    text: str
    kind: str
    strength: str
    scope: str
    key: str | None
    why: str
    tags: tuple[str, ...] = ()


# Prompts Claude Code wrote itself (UserPromptSubmit ``source``): not the user's words.
MACHINE_PROMPTS = frozenset({"system", "loop_wakeup", "schedule_wakeup", "poll_event"})


def slash_command(prompt: str) -> str | None:
    """Return the slash command a prompt starts with (``/compact``), or None.

    >>> slash_command("/review-pr 12"), slash_command("no command")
    ('/review-pr', None)
    """
    match = _SLASH.match(prompt or "")
    return f"/{match.group(1)}" if match else None


def detect_preferences(prompt: str) -> list[Detected]:
    """Return the preferences and project facts a prompt states, in their order."""
    if not may_hold(prompt) or slash_command(prompt):
        return []
    if not names_a_trigger(prompt):  # a person's words only: the rest could find nothing
        return _people_in(prompt)
    found: list[Detected] = []
    previous, previous_found = "", False
    for sentence in sentences(prose(prompt[:MAX_PROMPT_CHARS])):
        if len(sentence) > MAX_SENTENCE_CHARS:
            previous, previous_found = "", False
            continue
        if _goes_on(found, sentence, previous_found):
            found[-1] = _and_then(found[-1], sentence)
            previous, previous_found = sentence, True
            continue
        asked, detected = _remembered(sentence, previous)
        if not asked:
            detected = _stated(sentence)
        elif detected is not None and previous_found and detected.text == _tidy(previous):
            found.pop()  # "X. Remember this.": X once, as asked
        if detected is not None:
            found.append(detected)
        previous, previous_found = sentence, detected is not None
    return found[:MAX_FOUND]


def may_hold(prompt: str) -> bool:
    """Tell whether a prompt names a trigger word at all (else it holds nothing to keep).

    >>> may_hold("Fix the failing test in checkout"), may_hold("Always use pnpm")
    (False, True)
    """
    return names_a_trigger(prompt) or people.mentions(prompt[:MAX_PROMPT_CHARS])


def names_a_trigger(prompt: str) -> bool:
    """Tell whether a prompt names a word a preference or a fact needs (not only a person's).

    >>> names_a_trigger("Always use pnpm"), names_a_trigger("Sara reviews billing")
    (True, False)
    """
    low = " " + prompt[:MAX_PROMPT_CHARS].lower()  # " ask " opens a prompt too
    return any(anchor in low for anchor in _ANCHORS)


def prose(prompt: str) -> str:
    r"""Return the user's own words: code, quotes, logs and tagged blocks taken out.

    >>> print(prose('Fix it.\n> always use yarn\nThe wiki says "never use npm here" too.'))
    Fix it.
    <BLANKLINE>
    The wiki says … too.
    """
    text = _FENCE.sub("\n", prompt)
    text = _untagged(text)
    lines = ["" if _PASTED_LINE.search(line) else line for line in text.split("\n")]
    return _QUOTED.sub(_drop_long_quote, "\n".join(lines))


def _untagged(text: str) -> str:
    """Drop ``<tag>…</tag>`` blocks in one pass (a tag that never closes is left alone)."""
    if "</" not in text:
        return text
    last_close = {m.group(1): m.start() for m in _CLOSING_TAG.finditer(text)}
    kept, position = [], 0
    for opening in _OPENING_TAG.finditer(text):
        name = opening.group(1)
        if opening.start() < position or last_close.get(name, -1) < opening.end():
            continue
        closing = re.compile(rf"</{re.escape(name)}\s*>").search(text, opening.end())
        if closing is not None:
            kept.append(text[position : opening.start()])
            position = closing.end()
    return "\n".join([*kept, text[position:]])


def _drop_long_quote(match: re.Match[str]) -> str:
    quoted = next(group for group in match.groups() if group is not None)
    return "…" if len(quoted.split()) >= MIN_QUOTED_WORDS else match.group(0)


def sentences(text: str) -> list[str]:
    """Split a prompt into trimmed sentences (and lines), list bullets removed."""
    return [_BULLET.sub("", s.strip()) for s in _SENTENCES.split(text) if s.strip()]


def _stated(sentence: str) -> Detected | None:
    person = people.find(sentence)  # its own vetoes: "this quarter" is no one-off for a person
    if person is not None:
        return _about_person(person)
    if _skipped(sentence):
        return None
    if _is_rule(sentence):
        return _preference(sentence, "active", "stated as a rule")
    if _is_liking(sentence):
        return _preference(sentence, "pending", "stated as a liking")
    fact = project_fact(sentence)
    return _fact(fact) if fact is not None else None


def project_fact(sentence: str) -> str | None:
    """Return the fact of the project a sentence states, in passing or plainly, or None.

    In passing, after an aside ("FYI, …", "btw …", "참고로 …"), the fact is what follows it,
    when that states something (a verb of a statement; in Korean, not a request); plainly,
    the sentence is one of :data:`_FACT`'s shapes. Neither is a hypothetical, a pronoun's
    passing state or the moment's news (:data:`_NOT_A_FACT`).

    >>> project_fact("Add a retry there, btw the payments webhook lives in services/hooks")
    'the payments webhook lives in services/hooks'
    >>> project_fact("참고로 스테이징은 fly.io로 배포해"), project_fact("btw it's failing again")
    ('스테이징은 fly.io로 배포해', None)
    >>> project_fact("the staging DB is Postgres 15"), project_fact("if the DB is Postgres 15")
    ('the staging DB is Postgres 15', None)
    """
    aside = _ASIDE.search(sentence)
    if aside is not None and _states_a_fact(sentence[aside.end() :]):
        return sentence[aside.end() :].strip()
    if _FACT.search(sentence) and not _NOT_A_FACT.search(sentence.strip()):
        return sentence
    return None


def _states_a_fact(text: str) -> bool:
    """Tell whether what follows an aside states something, rather than asks or orders."""
    text = text.strip()
    if not text or _skipped(text) or _NOT_A_FACT.search(text):
        return False
    if _FACT.search(text):
        return True
    if _ORDER_OPENING.match(text) or _HOW_TO_WORK.search(text):
        return False
    if any("가" <= char <= "힣" for char in text):
        korean = not _KO_ASK.search(text) and _KO_STATEMENT_END.search(text)
        return len(text.split()) >= MIN_FACT_WORDS - 1 and bool(korean)
    return len(text.split()) >= MIN_FACT_WORDS and bool(_STATEMENT.search(text))


def _skipped(text: str) -> bool:
    """Tell whether ``text`` holds a secret, asks, or is only about the task at hand."""
    return _REDACTION_MARK in text or _is_question(text) or bool(_ONE_OFF.search(text))


def _is_question(sentence: str) -> bool:
    """Tell whether ``sentence`` asks (in Korean, a question word is enough: "어떻게 할지")."""
    if sentence.endswith(("?", "？")) or _QUESTION.search(sentence.rstrip(".! ")):
        return True
    return bool(_KO_WHY.search(sentence))


def _remembered(sentence: str, previous: str) -> tuple[bool, Detected | None]:
    """Tell whether ``sentence`` asks to remember something, and what (None: nothing)."""
    rest, sep = _remember_request(sentence)
    if rest is None:
        return False, None
    if not rest or _POINTER.match(rest):
        rest = _tidy(previous)  # "…. Remember this." / "…. 이거 기억해 둬."
    if not rest or _skipped(sentence) or _skipped(rest) or _RECALL_QUESTION.match(rest):
        return True, None
    return True, _what_to_remember(rest, sep)


def _what_to_remember(rest: str, sep: str) -> Detected | None:
    if sep == "to":  # "remember to …": a habit only with a rule or a when
        habit = _is_rule(rest) or _HABIT.search(rest)
        return _preference(rest, "active", "asked to remember") if habit else None
    person = people.find(rest)
    if person is not None:
        return _about_person(person)
    if _says_how_to_work(rest):
        return _preference(rest, "active", "asked to remember")
    return _fact(rest)


def _remember_request(sentence: str) -> tuple[str | None, str]:
    match = _REMEMBER.match(sentence)
    if match:
        return _tidy(match.group("rest")), match.group("sep").strip().lower()
    match = _KO_REMEMBER_FIRST.match(sentence) or _KO_REMEMBER_LAST.match(sentence)
    if match:
        rest = match.group("rest").strip()
        return _tidy(rest if _POINTER.match(rest) else _KO_REST_TAIL.sub("", rest)), ""
    return None, ""


def _says_how_to_work(text: str) -> bool:
    if _is_rule(text) or _is_liking(text):
        return True
    if _FACT.search(text):
        return False
    return bool(_HOW_TO_WORK.search(text)) or (
        bool(_USES.search(text)) and subject_key(text) is not None
    )


def _is_rule(sentence: str) -> bool:
    if _FUTURE.search(sentence) or _ORDER.search(sentence):
        return True
    if _FUTURE_OPENING.match(sentence):
        return not _a_task_for_next_time(sentence)
    if _KO_RULE.search(sentence):
        return _korean_rule(sentence)
    opening = _LEADING_PLACE.sub("", sentence)  # "in this repo never …" opens with the order
    if any(_base_form(match.group("next")) for match in _ALWAYS.finditer(opening)):
        return True
    if _ALWAYS_AFTER.search(sentence):  # "use tabs, always": only after an order
        return any(_HOW_TO_WORK.match(clause.strip()) for clause in sentence.split(","))
    verb = _I_ALWAYS.search(sentence)
    return verb is not None and _HOW_TO_WORK.match(verb.group("verb")) is not None


def _a_task_for_next_time(sentence: str) -> bool:
    """Tell a task left for the next session from a rule: "next time, add the expiry test".

    "Next time use pnpm" names how to work (its subject has a key); "next time, always …"
    says every time: both are rules. Anything else is work left to do
    (:mod:`artibot_memory.capture.todos` keeps it).
    """
    if not _NEXT_TIME.match(sentence) or _ALWAYS.search(sentence):
        return False
    return subject_key(sentence) is None


_NEXT_TIME = _Lazy(_LEAD + r"next\s+(?:time|session)\b", _I)


_NOT_AN_ORDER = frozenset(  # "it never got …", "always the same error"
    "was were had got did went came knew saw thought been".split()
    + "the a an this that these those same".split()
)


def _base_form(word: str) -> bool:
    """Tell whether the word after "always"/"never" can be an order ("use"), not "fails"."""
    low = word.lower()
    if low in _NOT_AN_ORDER:
        return False
    if low.endswith("ed") and not low.endswith("eed"):
        return False
    return not (low.endswith("s") and not low.endswith(("ss", "us", "is")))


def _korean_rule(sentence: str) -> bool:
    """Tell whether 항상 / 절대 … give an order here, not a description ("빌드가 항상 실패해")."""
    if _KO_DESCRIPTIVE.search(sentence):
        return False
    clause = next(c for c in re.split(r"[,，]", sentence) if _KO_RULE.search(c))
    return not _KO_SUBJECT.search(clause + " ") or bool(_KO_REQUEST_END.search(clause.strip()))


def _is_liking(sentence: str) -> bool:
    match = _LIKING.search(sentence)
    if match:
        verb = match.group("verb")
        return verb is None or _HOW_TO_WORK.match(verb) is not None
    if _USES.search(sentence) and subject_key(sentence) is not None:
        return True
    if _APPROVAL.match(sentence) or _KO_DEMONSTRATIVE.search(sentence):
        return False
    if _KO_LIKING.search(sentence):
        return "선호" in sentence or bool(
            _KO_LIKING_OBJECT.search(sentence) or subject_key(sentence)
        )
    return bool(_KO_HABIT.search(sentence)) and not _KO_REQUEST_END.search(sentence)


def _preference(text: str, strength: str, why: str) -> Detected:
    scope = "project" if _HERE.search(text) and not _EVERYWHERE.search(text) else "global"
    return Detected(_tidy(text), "preference", strength, scope, subject_key(text), why)


def person_of(sentence: str) -> str | None:
    """Return the person a sentence states a standing fact about ("Sara owns …"), or None.

    >>> person_of("Sara owns the billing service"), person_of("ask Tom before a release")
    ('Sara', 'Tom')
    >>> person_of("지민 님이 결제 서비스 담당이야"), person_of("It owns the lock")
    ('지민', None)
    """
    return people.person_of(sentence)


def person_tag(name: str) -> str:
    """Return the tag a fact about ``name`` carries.

    >>> person_tag("Tom Lee"), person_tag("지민")
    ('person:tom-lee', 'person:지민')
    """
    return "person:" + re.sub(r"\s+", "-", name.strip().lower())


def _people_in(prompt: str) -> list[Detected]:
    """Return the facts about people of a prompt that names no other trigger word.

    The same as the whole reading would find (a sentence without a trigger word is no
    preference and no fact), without compiling the patterns that could find nothing.
    """
    found: list[Detected] = []
    previous_found = False
    for sentence in sentences(prose(prompt[:MAX_PROMPT_CHARS])):
        if _goes_on(found, sentence, previous_found):
            found[-1] = _and_then(found[-1], sentence)
            continue
        person = people.find(sentence) if len(sentence) <= MAX_SENTENCE_CHARS else None
        if person is not None:
            found.append(_about_person(person))
        previous_found = person is not None
    return found[:MAX_FOUND]


def _goes_on(found: list[Detected], sentence: str, previous_found: bool) -> bool:  # noqa: FBT001
    """Tell whether ``sentence`` goes on about the person the sentence before it named."""
    last = found[-1] if found and previous_found else None
    return last is not None and last.scope == "person" and people.consequence(sentence)


def _and_then(person: Detected, sentence: str) -> Detected:
    """Return the fact about a person with what the next sentence says it means."""
    return replace(person, text=_tidy(f"{person.text}. {_tidy(sentence)}"))


def _about_person(person: people.Person) -> Detected:
    tag = person_tag(person.name)
    text = _tidy(person.text)
    return Detected(text, "context", "active", "person", None, "about a person", (tag,))


def _fact(text: str) -> Detected:
    return Detected(_tidy(text), "context", "active", "project", None, "a project fact")


def _tidy(text: str) -> str:
    text = text.strip().rstrip(".!。 ").strip()
    return text[:MAX_PREFERENCE_CHARS]
