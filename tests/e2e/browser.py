"""Drive a real headless Chromium over the DevTools Protocol, standard library only.

What a person looks at is checked the way they would see it: :class:`Browser` starts
``chromium --headless=new --remote-debugging-pipe`` (no port: the protocol's JSON messages,
NUL-delimited, go over the pipes the browser reads on fd 3 and writes on fd 4) with a
throwaway profile, and :meth:`Browser.new_page` gives a :class:`Page` that opens a ``file://``
URL at a viewport width and colour scheme, records every request the page attempts and every
console message, error and exception, measures horizontal overflow, takes screenshots, types
and presses Tab, and tells which fonts really drew a node's text.

Nothing leaves the machine: every request other than the page's own ``file://`` URL or a
``data:`` URL is recorded and then failed by the driver (the ``Fetch`` domain), and, belts and
braces, the browser resolves no host name and sends everything, loopback included, to a proxy
where nothing listens. Every wait has a deadline; the browser's whole process group is killed
and its profile removed on the way out, whatever happened.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import pytest

if TYPE_CHECKING:
    from types import TracebackType

INSTALL_COMMAND = (
    "bash .ci/install-debian chromium chromium && "
    "bash .ci/install-debian fc-list fonts-noto-cjk 'fc-list :lang=ko | grep -q .'"
)
BIN_ENV = "ARTIBOT_CHROMIUM_BIN"
REQUIRE_ENV = "ARTIBOT_REQUIRE_BROWSER"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 30.0  # seconds, for any one command or wait
QUIT_TIMEOUT = 5.0
# Where nothing listens: the proxy every request would go to (port 9 is "discard").
NOWHERE_PROXY = "http://127.0.0.1:9"
MAX_SCREENSHOT_HEIGHT = 16_000
# Font families that hold Hangul (what fonts-noto-cjk installs, and the usual others).
CJK_FAMILY = re.compile(
    r"CJK|Noto Sans KR|Noto Serif KR|Source Han|Nanum|Malgun|Apple SD Gothic|Gulim|Dotum|"
    r"Batang|Baekmuk|UnDotum|UnBatang|WenQuanYi|Droid Sans Fallback",
    re.IGNORECASE,
)
HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")


class BrowserError(RuntimeError):
    """The browser could not be started, or did not answer in time, or answered an error."""


class BrowserMissingError(BrowserError):
    """No Chromium binary was found."""


def find_chromium() -> Path | None:
    """``$ARTIBOT_CHROMIUM_BIN`` when set, else the first Chromium or Chrome on PATH."""
    explicit = os.environ.get(BIN_ENV)
    if explicit:
        path = Path(explicit)
        return path if path.is_file() and os.access(path, os.X_OK) else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return Path(found)
    return None


def live_in_group(group: int) -> list[int]:
    """The processes of process group ``group`` still running (zombies left out: a container's
    init may never reap the browser's orphans, but they hold nothing any more)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(int(stat.parent.name))
    return alive


def browser_required() -> bool:
    """Whether a missing Chromium must fail the run instead of skipping (CI sets it)."""
    return os.environ.get(REQUIRE_ENV) == "1"


def require_chromium() -> Path:
    """The Chromium binary, or a skip (a failure when ``ARTIBOT_REQUIRE_BROWSER=1``)."""
    binary = find_chromium()
    if binary is not None:
        return binary
    if browser_required():
        pytest.fail(f"{missing_reason()} [{REQUIRE_ENV}=1]", pytrace=False)
    pytest.skip(missing_reason())


def missing_reason() -> str:
    """One line saying Chromium is missing, where it was looked for and how to install it."""
    return (
        f"Chromium not found (checked ${BIN_ENV} and PATH for {', '.join(CANDIDATES)}); "
        f"install it with `{INSTALL_COMMAND}`"
    )


@dataclass(frozen=True)
class Request:
    """A request the page attempted (``Network.requestWillBeSent``)."""

    url: str
    method: str
    kind: str  # Document, Script, Image, Fetch, …


@dataclass(frozen=True)
class Message:
    """A console message, a log entry (a CSP violation is one) or an uncaught exception."""

    source: str  # console-api, exception, or the Log domain's source (security, network, …)
    level: str  # error, warning, info, log, debug, …
    text: str

    @property
    def is_error(self) -> bool:
        return self.level in {"error", "assert"} or self.source == "exception"


@dataclass(frozen=True)
class Overflow:
    """The page's width against the viewport's; ``offenders`` name what sticks out."""

    scroll_width: int
    width: int  # the viewport's, as set (a phone may zoom out: innerWidth grows then)
    inner_width: int
    offenders: tuple[str, ...]

    @property
    def overflows(self) -> bool:
        return self.scroll_width > self.width or self.inner_width > self.width

    def __str__(self) -> str:
        head = (
            f"scrollWidth {self.scroll_width} px, innerWidth {self.inner_width} px, "
            f"viewport {self.width} px"
        )
        return head + "".join(f"\n  {o}" for o in self.offenders)


@dataclass(frozen=True)
class Font:
    """One platform font that drew some of a node's text (``CSS.getPlatformFontsForNode``)."""

    family: str
    postscript_name: str
    glyphs: int
    custom: bool


@dataclass(frozen=True)
class Item:
    """An element matched by a selector: its id, its text (spaces folded), whether it is shown."""

    id: str
    text: str
    visible: bool


class Browser:
    """A headless Chromium for the length of a ``with`` block."""

    def __init__(self, binary: Path | None = None, *, timeout: float = TIMEOUT) -> None:
        found = binary or find_chromium()
        if found is None:
            raise BrowserMissingError(missing_reason())
        self.binary = found
        self.timeout = timeout
        self._dir = Path(tempfile.mkdtemp(prefix="artibot-chromium-"))
        self._pid: int | None = None
        self._to_browser = -1
        self._from_browser = -1
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._next_id = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._listeners: dict[str, list[Page]] = {}  # sessionId → its pages
        self._closed = False
        self._reader: threading.Thread | None = None

    # -- life --------------------------------------------------------------------------

    def __enter__(self) -> Self:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def arguments(self) -> list[str]:
        """The command line: headless, throwaway profile, nothing reaching any network."""
        args = [
            str(self.binary),
            "--headless=new",
            "--remote-debugging-pipe",
            f"--user-data-dir={self._dir / 'profile'}",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-default-apps",
            "--disable-extensions",
            "--disable-sync",
            "--disable-breakpad",
            "--disable-domain-reliability",
            "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
            "--metrics-recording-only",
            "--no-pings",
            "--mute-audio",
            "--hide-scrollbars",
            "--force-color-profile=srgb",
            "--lang=en-US",
            # Belts and braces: no host name resolves, and every request, loopback included,
            # would go to a proxy where nothing listens (the driver fails them first anyway).
            "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--proxy-server={NOWHERE_PROXY}",
            "--proxy-bypass-list=<-loopback>",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(2, "--no-sandbox")  # the sandbox refuses to run as root
        return args

    def _start(self) -> None:
        command_read, command_write = os.pipe()  # we write commands, the browser reads fd 3
        reply_read, reply_write = os.pipe()  # the browser writes fd 4, we read
        self._to_browser, self._from_browser = command_write, reply_read
        log = self._dir / "chromium.log"
        env = {
            **os.environ,
            "XDG_CONFIG_HOME": str(self._dir / "config"),
            "XDG_CACHE_HOME": str(self._dir / "cache"),
        }
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, str(log), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600),
            (os.POSIX_SPAWN_DUP2, 1, 2),
            (os.POSIX_SPAWN_DUP2, command_read, 3),
            (os.POSIX_SPAWN_DUP2, reply_write, 4),
        ]
        try:
            # posix_spawn, not Popen: the pipes must be fds 3 and 4 in the child, which Popen
            # can only arrange in a preexec_fn; setsid makes its own process group to kill.
            self._pid = os.posix_spawn(
                str(self.binary), self.arguments(), env, file_actions=actions, setsid=True
            )
        finally:
            os.close(command_read)
            os.close(reply_write)
        self._reader = threading.Thread(target=self._read, name="chromium-reader", daemon=True)
        self._reader.start()
        self.send("Target.setDiscoverTargets", {"discover": False})

    def close(self) -> None:
        """Quit the browser (kill it when it does not quit), then remove its profile."""
        if self._pid is not None:
            if not self._closed:
                with contextlib.suppress(BrowserError, OSError):
                    self.send("Browser.close", timeout=QUIT_TIMEOUT)
            if not self._wait_exit(QUIT_TIMEOUT):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self._pid, signal.SIGKILL)
                self._wait_exit(QUIT_TIMEOUT)
            # Whatever it left in its group (renderers, the zygote) goes too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._pid, signal.SIGKILL)
            deadline = time.monotonic() + QUIT_TIMEOUT
            while live_in_group(self._pid) and time.monotonic() < deadline:
                time.sleep(0.02)  # polling for the kills to land, under a deadline
            self._pid = None
        for fd in (self._to_browser, self._from_browser):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._to_browser = self._from_browser = -1
        if self._reader is not None:
            self._reader.join(QUIT_TIMEOUT)
            self._reader = None
        shutil.rmtree(self._dir, ignore_errors=True)

    def _wait_exit(self, timeout: float) -> bool:
        assert self._pid is not None
        deadline = time.monotonic() + timeout
        while True:
            try:
                pid, _ = os.waitpid(self._pid, os.WNOHANG)
            except ChildProcessError:
                return True
            if pid:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)  # polling the child's exit, under a deadline

    def log_tail(self, lines: int = 15) -> str:
        """The end of the browser's own output (for error messages)."""
        try:
            text = (self._dir / "chromium.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    # -- the protocol ------------------------------------------------------------------

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for raw in messages:
                if raw:
                    self._dispatch(json.loads(raw))
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "id" in message:
            with self._cond:
                self._replies[message["id"]] = message
                self._cond.notify_all()
            return
        for page in self._listeners.get(message.get("sessionId", ""), []):
            page.on_event(message["method"], message.get("params", {}))

    def post(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> int:
        """Send a command without waiting for its reply; its id."""
        with self._cond:
            self._next_id += 1
            number = self._next_id
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        with self._write_lock:
            try:
                while data:
                    data = data[os.write(self._to_browser, data) :]
            except OSError as error:
                raise BrowserError(f"{method}: the browser is gone ({error})") from error
        return number

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session: str = "",
        *,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send a command and wait (at most ``timeout`` seconds) for its result."""
        number = self.post(method, params, session)
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while number not in self._replies:
                left = deadline - time.monotonic()
                if self._closed:
                    raise BrowserError(f"{method}: the browser exited\n{self.log_tail()}")
                if left <= 0:
                    raise BrowserError(f"{method}: no reply in {timeout or self.timeout:.0f} s")
                self._cond.wait(left)
            reply = self._replies.pop(number)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message', reply['error'])}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def detach(self, page: Page) -> None:
        """Stop sending ``page`` its session's events."""
        listeners = self._listeners.get(page.session, [])
        if page in listeners:
            listeners.remove(page)

    def new_page(self) -> Page:
        """A new tab, attached, with the domains the checks need enabled."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})
        page = Page(self, session["sessionId"], target)
        self._listeners.setdefault(page.session, []).append(page)
        page.enable()
        return page


class Page:
    """One tab: open a file, look at it, type into it; what it attempted is recorded."""

    def __init__(self, browser: Browser, session: str, target: str = "") -> None:
        self.browser = browser
        self.session = session
        self.target = target
        self.url = "about:blank"
        self.width = 0  # the viewport's, once set
        self.requests: list[Request] = []  # every request attempted since the last goto
        self.messages: list[Message] = []  # console, log entries and exceptions, likewise
        self._events: list[str] = []  # the names of the events since the last goto
        self._lock = threading.Lock()

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def close(self) -> None:
        """Close the tab (the browser stays)."""
        self.browser.detach(self)
        if self.target:
            self.browser.send("Target.closeTarget", {"targetId": self.target})

    def enable(self) -> None:
        """Turn on the domains the checks read (the browser does it for a new page)."""
        for domain in ("Page", "Runtime", "Log", "Network", "DOM", "CSS"):
            self.send(f"{domain}.enable")
        # Every request stops in the driver first: the page's own file and data: URLs go on,
        # everything else is recorded (Network.requestWillBeSent) and failed, so nothing is
        # ever reached, whatever the flags above do.
        self.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})

    # -- what the page does ------------------------------------------------------------

    def on_event(self, method: str, params: dict[str, Any]) -> None:
        """Record one event of this page's session (called on the browser's reader thread)."""
        with self._lock:
            self._events.append(method)
            if method == "Network.requestWillBeSent":
                request = params.get("request", {})
                self.requests.append(
                    Request(
                        request.get("url", ""), request.get("method", ""), params.get("type", "")
                    )
                )
            elif method == "Runtime.consoleAPICalled":
                text = " ".join(_describe(arg) for arg in params.get("args", []))
                self.messages.append(Message("console-api", params.get("type", "log"), text))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                text = _describe(details.get("exception", {})) or details.get("text", "")
                self.messages.append(Message("exception", "error", text))
            elif method == "Log.entryAdded":
                entry = params.get("entry", {})
                text = entry.get("text", "") + (f" ({entry['url']})" if entry.get("url") else "")
                self.messages.append(
                    Message(entry.get("source", "other"), entry.get("level", "info"), text)
                )
        if method == "Fetch.requestPaused":
            url = params.get("request", {}).get("url", "")
            # From the reader thread: post only, a wait for the reply here would never end.
            if self._own(url):
                self.browser.post(
                    "Fetch.continueRequest", {"requestId": params["requestId"]}, self.session
                )
            else:
                self.browser.post(
                    "Fetch.failRequest",
                    {"requestId": params["requestId"], "errorReason": "BlockedByClient"},
                    self.session,
                )

    def _own(self, url: str) -> bool:
        return url.split("#", 1)[0] == self.url.split("#", 1)[0] or url.startswith("data:")

    @property
    def foreign_requests(self) -> list[Request]:
        """The requests attempted other than the page's own file and ``data:`` URLs."""
        with self._lock:
            return [r for r in self.requests if not self._own(r.url)]

    @property
    def errors(self) -> list[Message]:
        """Console errors, error log entries (a CSP violation is one) and exceptions."""
        with self._lock:
            return [m for m in self.messages if m.is_error]

    def _wait_for_event(self, name: str, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (timeout or self.browser.timeout)
        while True:
            with self._lock:
                if name in self._events:
                    return
            if time.monotonic() > deadline:
                raise BrowserError(
                    f"{self.url}: no {name} in {timeout or self.browser.timeout:.0f} s"
                )
            time.sleep(0.01)  # polling for the browser's event, under a deadline

    # -- setting the scene -------------------------------------------------------------

    def set_viewport(self, width: int, height: int = 900) -> None:
        """Lay the page out ``width`` CSS px wide (a phone's, with its viewport meta, under 600)."""
        self.width = width
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )

    def set_color_scheme(self, scheme: str) -> None:
        """``prefers-color-scheme``: ``light`` or ``dark``."""
        self.send(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
        )

    def goto(self, target: str | Path) -> None:
        """Open ``target`` (a path or a URL) and wait for its load event and one more frame."""
        url = target.resolve().as_uri() if isinstance(target, Path) else target
        with self._lock:
            self.url = url
            self.requests.clear()
            self.messages.clear()
            self._events.clear()
        result = self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise BrowserError(f"{url}: {result['errorText']}")
        self._wait_for_event("Page.loadEventFired")
        # What the page's scripts queued at load has run, and a frame is painted.
        self.evaluate("new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")

    def evaluate(self, expression: str) -> Any:
        """The value of a JS expression (promises awaited); a thrown error is a BrowserError."""
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = _describe(details.get("exception", {})) or details.get("text", "")
            raise BrowserError(f"evaluate failed: {text}\n{expression}")
        return result.get("result", {}).get("value")

    # -- looking -----------------------------------------------------------------------

    def overflow(self) -> Overflow:
        """Whether the page is wider than the viewport, and the elements that stick out."""
        width = self.width or int(self.evaluate("window.innerWidth"))
        found = self.evaluate(_OVERFLOW_JS.replace("WIDTH", str(width)))
        return Overflow(found["scrollWidth"], width, found["innerWidth"], tuple(found["offenders"]))

    def screenshot(
        self,
        path: Path,
        *,
        full_page: bool = True,
        clip: tuple[int, int] | None = None,
        quality: int | None = None,
    ) -> Path:
        """Save a screenshot: the full page, or the top ``clip`` (width, height) CSS px.

        A ``.jpg`` path is saved as JPEG (``quality``, default 80), anything else as PNG.
        """
        jpeg = path.suffix.lower() in {".jpg", ".jpeg"}
        params: dict[str, Any] = {"format": "jpeg" if jpeg else "png"}
        if jpeg:
            params["quality"] = quality or 80
        if clip is not None:
            params["clip"] = {"x": 0, "y": 0, "width": clip[0], "height": clip[1], "scale": 1}
        elif full_page:
            metrics = self.send("Page.getLayoutMetrics")
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            width = max(1, int(size["width"]))
            height = max(1, min(int(size["height"]), MAX_SCREENSHOT_HEIGHT))
            params["clip"] = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
            params["captureBeyondViewport"] = True
        import base64  # noqa: PLC0415 - only screenshots need it

        data = base64.b64decode(self.send("Page.captureScreenshot", params)["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def items(self, selector: str = ".item") -> list[Item]:
        """Every element ``selector`` matches, with whether it is shown."""
        found = self.evaluate(
            f"[...document.querySelectorAll({json.dumps(selector)})].map(el => ({{"
            "id: el.id, text: (el.innerText || el.textContent).replace(/\\s+/g, ' ').trim(),"
            "visible: el.checkVisibility ? el.checkVisibility({visibilityProperty: true})"
            " : el.getClientRects().length > 0}))"
        )
        return [Item(i["id"], i["text"], bool(i["visible"])) for i in found]

    def focus(self, selector: str) -> None:
        found = self.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
            " if (!el) return false; el.focus(); return document.activeElement === el; })()"
        )
        if not found:
            raise BrowserError(f"{selector}: not found or not focusable")

    def type_into(self, selector: str, text: str) -> None:
        """Focus ``selector`` and type ``text`` as a keyboard would (input events fire)."""
        self.focus(selector)
        self.send("Input.insertText", {"text": text})
        self.evaluate("new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")

    def clear(self, selector: str) -> None:
        """Select the field's text and delete it with Backspace."""
        self.focus(selector)
        self.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
        self.press("Backspace", 8)

    def press(self, key: str, code: int) -> None:
        """Press and release one key (``Tab`` 9, ``Backspace`` 8, …)."""
        common = {"key": key, "code": key, "windowsVirtualKeyCode": code}
        self.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **common})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", **common})
        self.evaluate("new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")

    def active(self) -> dict[str, str]:
        """The focused element: tag, id, type, href, and ``nav`` when it is in a ``<nav>``."""
        found: dict[str, str] = self.evaluate(
            "(() => { const el = document.activeElement; return el ? {tag: el.tagName"
            ".toLowerCase(), id: el.id || '', type: el.getAttribute('type') || '',"
            " href: el.getAttribute('href') || '', nav: el.closest('nav') ? 'nav' : ''}"
            " : {tag: '', id: '', type: '', href: '', nav: ''}; })()"
        )
        return found

    def tab_stops(self, count: int) -> list[dict[str, str]]:
        """Where the focus lands on each of ``count`` presses of Tab, from the page's top."""
        self.evaluate("document.activeElement && document.activeElement.blur()")
        stops = []
        for _ in range(count):
            self.press("Tab", 9)
            stops.append(self.active())
        return stops

    def fonts_for_text(self, pattern: str) -> tuple[str, list[Font]]:
        """The first drawn element whose own text matches ``pattern`` (a JS regexp); its fonts."""
        document = self.send("DOM.getDocument", {"depth": 0})
        assert document["root"]["nodeId"]
        found = self.send(
            "Runtime.evaluate",
            {
                "expression": _FIND_TEXT_JS.replace("PATTERN", json.dumps(pattern)),
                "returnByValue": False,
            },
        )["result"]
        if found.get("subtype") == "null" or "objectId" not in found:
            raise BrowserError(f"no element's own text matches /{pattern}/")
        node = self.send("DOM.requestNode", {"objectId": found["objectId"]})["nodeId"]
        text = self.send(
            "Runtime.callFunctionOn",
            {
                "objectId": found["objectId"],
                "functionDeclaration": "function () { return this.textContent; }",
                "returnByValue": True,
            },
        )["result"]["value"]
        fonts = self.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        return text, [
            Font(f["familyName"], f.get("postScriptName", ""), f["glyphCount"], f["isCustomFont"])
            for f in fonts
        ]

    def hangul_rendered(self) -> tuple[bool, str]:
        """Whether the first Hangul text is drawn by a CJK font (not tofu): ok, and why."""
        text, fonts = self.fonts_for_text("[\\uac00-\\ud7af]")
        hangul = len(HANGUL.findall(text))
        cjk = sum(f.glyphs for f in fonts if CJK_FAMILY.search(f.family))
        used = ", ".join(f"{f.family} ({f.glyphs} glyphs)" for f in fonts) or "none"
        why = f"{hangul} Hangul characters in {text[:60]!r}; fonts used: {used}"
        return hangul > 0 and cjk >= hangul, why


def _describe(remote: dict[str, Any]) -> str:
    """A Runtime.RemoteObject as text."""
    if "value" in remote:
        return str(remote["value"])
    return str(remote.get("description") or remote.get("unserializableValue") or "")


_OVERFLOW_JS = """(() => {
  const width = WIDTH;
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const offenders = [];
  if (document.documentElement.scrollWidth > width || window.innerWidth > width) {
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.width && (box.right > width + 0.5 || box.left < -0.5)) {
        // Only the outermost: a child of an offender sticks out with it.
        if (!offenders.some(o => o.el.contains(el))) {
          offenders.push({el, text: `${name(el)} spans ${Math.round(box.left)}..` +
            `${Math.round(box.right)} px`});
        }
      }
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width,
          offenders: offenders.slice(0, 10).map(o => o.text)};
})()"""

_FIND_TEXT_JS = """(() => {
  const pattern = new RegExp(PATTERN);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;  // the first one drawn: a closed <details> draws nothing
    if (pattern.test(node.data) && el && el.getClientRects().length) return el;
  }
  return null;
})()"""
