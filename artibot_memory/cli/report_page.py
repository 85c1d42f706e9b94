"""The report page's frame: its style, its one script, its charts, its Content-Security-Policy.

Nothing on the page is fetched: the style is inline, the charts are inline SVG drawn here,
and the one script (the search box) is inline too, allowed by its SHA-256 hash in the
page's ``Content-Security-Policy`` (:func:`csp`), which forbids every other script, every
fetch, every form and every ``<base>``. The page works without the script: the search box
only appears when the script runs.
"""

from __future__ import annotations

import base64
import hashlib
import html

STYLE = """\
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;
--card:#f6f8fa;--accent:#0969da;--bar:#0969da;--bad:#cf222e;--ok:#1a7f37;--code:#eff1f3;
--warn:#9a6700;--warnbg:#fff8c5;--k1:#8250df;--k2:#0969da;--k3:#1a7f37;--k4:#6e7781;--k5:#bc4c00}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;
--line:#30363d;--card:#161b22;--accent:#58a6ff;--bar:#58a6ff;--bad:#ff7b72;--ok:#3fb950;
--code:#1f242c;--warn:#d29922;--warnbg:#2d2410;--k1:#d2a8ff;--k2:#58a6ff;--k3:#3fb950;
--k4:#8b949e;--k5:#f0883e}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;scroll-padding-top:.5rem}
body{margin:0;background:var(--bg);color:var(--fg);
font:16px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans KR","Apple SD Gothic Neo",sans-serif}
header,.layout,footer{max-width:84rem;margin:0 auto;padding:0 1rem}
h1{font-size:1.6rem;margin:1rem 0 .25rem}h2{font-size:1.35rem;margin:2.2rem 0 .6rem;
border-bottom:1px solid var(--line);padding-bottom:.3rem}h3{font-size:1.1rem;margin:1.4rem 0 .4rem}
main>section:first-child h2{margin-top:1rem}
p,li,td,th,dd,dt,code,pre,summary{overflow-wrap:anywhere}
a{color:var(--accent)}
a:focus-visible,input:focus-visible,summary:focus-visible,.scroll:focus-visible{
outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem}
.skip:focus{left:.5rem;z-index:1}
.side nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:.5rem 0}
.side nav .group{display:contents}.side nav .group>span{display:none}
.side nav .group ul{display:contents}
@media (min-width:64rem){.layout{display:grid;grid-template-columns:12rem minmax(0,1fr);
gap:0 2rem}.side{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto;
padding:1rem 0}.side nav ul{flex-direction:column;flex-wrap:nowrap;gap:.1rem}
.side nav .group{display:block;margin:.4rem 0}.side nav .group>span{display:block}
.side nav .group ul{display:flex;margin:.1rem 0 0 .8rem}.side #q{max-width:100%}}
.muted,.meta{color:var(--muted)}.meta{font-size:.85rem}
.jumps{font-size:.9rem;margin:.2rem 0 .6rem}
code,pre{font:.85rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
background:var(--code);border-radius:4px}
code{padding:.05rem .3rem}pre{padding:.6rem;white-space:pre-wrap;max-height:30rem;overflow:auto}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;min-width:100%}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
th,td{overflow-wrap:normal}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;
white-space:nowrap}tr.total th,tr.total td{font-weight:600;border-top:2px solid var(--fg)}
ul.items{list-style:none;padding:0;margin:0}
.item{border:1px solid var(--line);background:var(--card);border-radius:6px;
padding:.5rem .7rem;margin:.4rem 0}
.item .text{white-space:pre-wrap;margin:.2rem 0}
.cmd{display:block;margin-top:.3rem}
.figure{display:flex;flex-wrap:wrap;gap:.2rem .8rem;align-items:baseline}
.count{font-size:1.3rem;font-weight:600;min-width:3ch}
.big{font-size:1.4rem;font-weight:700;line-height:1.1;font-variant-numeric:tabular-nums}
.glance{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:.4rem;
list-style:none;padding:0;margin:.8rem 0 .4rem}
.tile{display:flex;flex-direction:column;height:100%;padding:.35rem .55rem;
border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg);
text-decoration:none}
.tile:hover .label{text-decoration:underline}.tile .label{color:var(--muted);font-size:.8rem;
line-height:1.25}
@media (min-width:48rem){.glance{grid-template-columns:repeat(auto-fill,minmax(9rem,1fr))}
.big{font-size:1.7rem}.tile{padding:.5rem .7rem}.tile .label{font-size:.9rem}
.sessions{display:grid;grid-template-columns:repeat(auto-fill,minmax(24rem,1fr));gap:0 1rem}}
.sessions h4{margin:.6rem 0 .2rem}.sessions .item{padding:.3rem .6rem;margin:.25rem 0;
display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.tile:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.warn{border-color:var(--warn);border-left:6px solid var(--warn)}
.flag{display:inline-block;margin-top:.2rem;font-size:.8rem;font-weight:600;color:var(--warn);
background:var(--warnbg);border-radius:4px;padding:0 .35rem;width:fit-content;max-width:100%}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,18rem),1fr));gap:.7rem;
align-items:start}
.card{border:1px solid var(--line);border-radius:8px;padding:.6rem .8rem;background:var(--bg);
min-width:0}.card h3{margin:0;display:flex;flex-direction:column}.card .label{font-size:1rem}
.card p{margin:.2rem 0}.card details{margin-top:.4rem}.card summary{font-size:.9rem}
@media (max-width:47.99rem){.card h3{flex-direction:row;flex-wrap:wrap;align-items:baseline;
gap:0 .5rem}}
.card:has(details[open]){grid-column:1/-1}
.badge{display:inline-block;border:1px solid var(--line);border-radius:1rem;
padding:0 .5rem;font-size:.8rem}
.open{color:var(--bad)}.resolved{color:var(--ok)}
svg{max-width:100%;height:auto}figure.chart{margin:0;max-width:36rem}
figure.chart svg{width:100%}svg .axis{fill:var(--muted);font-size:13px}
svg .grid{stroke:var(--line);stroke-width:1}
.k-preference{fill:var(--k1);background:var(--k1)}.k-context{fill:var(--k2);background:var(--k2)}
.k-session{fill:var(--k3);background:var(--k3)}.k-command{fill:var(--k4);background:var(--k4)}
.k-error{fill:var(--k5);background:var(--k5)}
.legend{display:flex;flex-wrap:wrap;gap:.1rem 1rem;list-style:none;padding:0;margin:.2rem 0}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;
vertical-align:-.05rem}
svg .spark{fill:none;stroke:var(--bar);stroke-width:1.5}svg .dot{fill:var(--bar)}
#search{margin:.5rem 0}#q{font:inherit;width:100%;max-width:28rem;padding:.35rem .5rem;
border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
[hidden]{display:none!important}
"""

SCRIPT = """\
(function () {
  var box = document.getElementById("search");
  var q = document.getElementById("q");
  var said = document.getElementById("qcount");
  if (!box || !q || !said) { return; }
  box.hidden = false;
  var items = Array.prototype.slice.call(document.querySelectorAll(".item"));
  var norm = function (s) { return (s || "").normalize("NFC").toLowerCase(); };
  var texts = items.map(function (el) { return norm(el.textContent); });
  q.addEventListener("input", function () {
    var want = norm(q.value.trim());
    var shown = 0;
    items.forEach(function (el, i) {
      var hit = !want || texts[i].indexOf(want) !== -1;
      el.hidden = !hit;
      if (hit) { shown += 1; }
    });
    said.textContent = want ? shown + " of " + items.length + " items match" : "";
  });
})();
"""


def escape(text: str) -> str:
    """Return ``text`` escaped for the page's elements and double-quoted attributes.

    ``&``, ``<``, ``>`` and ``"`` are escaped; an apostrophe is left as it is (it means
    nothing there, and ``We&#x27;ll`` would read to the writer's redactor as a made-up
    password).

    >>> escape('<b class="x">it’s</b> & more'.replace("’", "'"))
    "&lt;b class=&quot;x&quot;&gt;it's&lt;/b&gt; &amp; more"
    """
    return html.escape(text, quote=False).replace('"', "&quot;")


def script_hash(script: str = SCRIPT) -> str:
    """Return the CSP source allowing exactly ``script``.

    >>> script_hash("x")
    "'sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE='"
    """
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def csp() -> str:
    """Return the page's Content-Security-Policy: nothing fetched, only our script runs."""
    return (
        "default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src {script_hash()}; form-action 'none'; base-uri 'none'"
    )


def head(title: str) -> str:
    """Return the page's ``<head>``: charset, viewport, the policy, the style."""
    return (
        '<head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(csp(), quote=False)}">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
    )


def search_box() -> str:
    """Return the search box, hidden until the script shows it."""
    return (
        '<div id="search" role="search" hidden><label for="q">Filter every item: </label>'
        '<input id="q" type="search" autocomplete="off" placeholder="pnpm, 커밋, err-…">'
        ' <span id="qcount" class="meta" aria-live="polite"></span></div>'
    )


def weekly_chart(weeks: list[tuple[str, dict[str, int]]], kinds: dict[str, str]) -> str:
    """Return an inline SVG of memories created per week, stacked by kind, and its legend.

    ``weeks``: Monday's date → kind → count; ``kinds``: kind → the name a person reads. The
    axes say a few weeks and the highest week; the ``<title>`` (and ``aria-label``) says it
    in a sentence, and each week's bar says its counts when hovered.
    """
    if not weeks:
        return '<p class="muted">No memories yet.</p>'
    totals = [sum(counts.values()) for _, counts in weeks]
    top = max(totals) or 1
    busiest = weeks[totals.index(max(totals))][0]
    width, height, left, bottom, ceiling = 420, 160, 34, 22, 12
    step = (width - left) / len(weeks)
    scale = (height - bottom - ceiling) / top
    base = height - bottom
    bars = []
    for at, ((monday, counts), total) in enumerate(zip(weeks, totals, strict=True)):
        x, y = left + at * step + 1, float(base)
        said = ", ".join(f"{n} {kinds[k]}" for k, n in counts.items() if n)
        rects = []
        for kind, count in counts.items():
            if count:
                tall = count * scale
                y -= tall
                rects.append(
                    f'<rect class="k-{kind}" x="{x:.1f}" y="{y:.1f}"'
                    f' width="{max(step - 2, 1):.1f}" height="{tall:.1f}"/>'
                )
        bars.append(
            f"<g><title>week of {_day(monday)}: {total}"
            + (f" ({said})" if said else "")
            + "</title>"
            + "".join(rects)
            + "</g>"
        )
    label = (
        f"{sum(totals):,} memories created in the last {len(weeks)} weeks,"
        f" most in the week of {_day(busiest)} ({max(totals):,})"
    )
    every = max(1, -(-len(weeks) // 5))  # at most 5 week labels
    ticks = [
        f'<text class="axis" x="{left + at * step + step / 2:.1f}" y="{height - 6}"'
        f' text-anchor="middle">{_day(monday, short=True)}</text>'
        for at, (monday, _) in enumerate(weeks)
        if at % every == 0
    ]
    used = [k for k in kinds if any(counts.get(k) for _, counts in weeks)]
    legend = "".join(
        f'<li><span class="swatch k-{k}" aria-hidden="true"></span>{escape(kinds[k])}'
        f" {sum(counts.get(k, 0) for _, counts in weeks):,}</li>"
        for k in used
    )
    return (
        f'<figure class="chart"><svg viewBox="0 0 {width} {height}" role="img"'
        f' aria-label="{escape(label)}"><title>{escape(label)}</title>'
        f'<line class="grid" x1="{left}" x2="{width}" y1="{ceiling}" y2="{ceiling}"/>'
        f'<line class="grid" x1="{left}" x2="{width}" y1="{base}" y2="{base}"/>'
        f'<text class="axis" x="{left - 4}" y="{ceiling + 4}" text-anchor="end">{top}</text>'
        f'<text class="axis" x="{left - 4}" y="{base}" text-anchor="end">0</text>'
        + "".join(bars)
        + "".join(ticks)
        + f'</svg><figcaption class="meta">{escape(label)}; per week, by kind:'
        f'<ul class="legend">{legend}</ul></figcaption></figure>'
    )


_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def _day(iso: str, *, short: bool = False) -> str:
    """Return ``2026-10-05`` as ``Oct 5, 2026`` (``short``: ``Oct 5``).

    >>> _day("2026-10-05"), _day("2026-10-05", short=True)
    ('Oct 5, 2026', 'Oct 5')
    """
    year, month, day = (int(part) for part in iso.split("-"))
    said = f"{_MONTHS[month - 1]} {day}"
    return said if short else f"{said}, {year}"


def sparkline(points: list[tuple[str, float]]) -> str:
    """Return an inline SVG line of a belief's confidence (0 to 1) over its points."""
    width, height = 120, 28
    values = [value for _, value in points]
    if not values:
        return ""
    step = width / max(len(values) - 1, 1)
    xy = [(at * step, height - 2 - value * (height - 4)) for at, value in enumerate(values)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    said = ", ".join(f"{day} {value:.2f}" for day, value in points[-8:])
    last_x, last_y = xy[-1]
    return (
        f'<svg class="sparkline" viewBox="-3 0 {width + 6} {height}" width="{width + 6}"'
        f' height="{height}" role="img" aria-label="confidence over time: {escape(said)}">'
        f'<polyline class="spark" points="{line}"/>'
        f'<circle class="dot" cx="{last_x:.1f}" cy="{last_y:.1f}" r="2.5"/></svg>'
    )
