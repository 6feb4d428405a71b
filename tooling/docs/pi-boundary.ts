/**
 * 文档检查：Pi 边界的依据（标题块里 `> Pi 边界：…` 那一行）。写 README 的人要做到：
 *
 *   Pi 边界那一行以它的依据收尾，写成一个全角括号括起来的小句：`（依据：…）`，后面可以跟一个 `。`。小句里的每段行内代码
 *   都是依据，都得真有：Pi 1.6.0 的名字（`Agent.prompt`，查前两截）或路径（`packages/…`、`docs/x.md`、简写的 `agent/…`、
 *   只写文件名的 `agent-loop.ts`），认法和 Pi 源码溯源一样（tooling/pi-index.json）；或者是已经在这一课上跑的保真对照
 *   场景的 id（fidelity/scenarios.ts、fidelity/mechanisms.ts）。至少一段。它们之间的字随便写：
 *   `（依据：`packages/agent/src/agent.ts` 的 `Agent.prompt`；对照 `provider-error`）`。
 *   这个小句说的是 Pi，所以词汇纪律不读它（和 Pi 源码溯源一样）；里面的「`路径` 的 `名字`」照样归 Pi 名字和文件的检查管。
 */
import { lessonNumber } from "../course.ts";
import { HEAD, type InlineLine, type Piece, lineText, linesOf, parseReadme } from "../markdown.ts";
import type { DocsContext } from "./context.ts";
import { piPathFiles } from "./pi-trace.ts";
import { FILE_EXT, classifySpan } from "./spans.ts";

const BOUNDARY = /^Pi 边界[：:]/;
const OPEN = /[（(]依据[：:]/;
const CLOSE = /[）)]\s*[。.]?\s*$/;

/** README 标题块里的 Pi 边界那一行，有的话。 */
export function boundaryLine(readme: string): InlineLine | undefined {
  const doc = parseReadme(readme);
  return linesOf(doc.head.filter((n) => n.type === "blockquote")).find((l) => BOUNDARY.test(lineText(l).trim()));
}

/**
 * 一行里的依据小句：从 `（依据：` 到行尾的几段，和它是不是在那里收口；这一行没有这样的小句时回 undefined。
 */
export function evidenceClause(line: InlineLine): { pieces: Piece[]; closed: boolean } | undefined {
  for (let i = line.pieces.length - 1; i >= 0; i--) {
    const p = line.pieces[i] as Piece;
    if (p.code) continue;
    const m = OPEN.exec(p.value);
    if (!m) continue;
    const pieces: Piece[] = [{ ...p, value: p.value.slice(m.index) }, ...line.pieces.slice(i + 1)];
    const last = pieces.at(-1);
    return { pieces, closed: last !== undefined && !last.code && CLOSE.test(last.value) };
  }
  return undefined;
}

/** 去掉依据小句的一行（给把小句留给这条检查的那几条检查用）。 */
export function withoutEvidence(line: InlineLine): InlineLine {
  const clause = evidenceClause(line);
  if (!clause) return line;
  const at = line.pieces.length - clause.pieces.length;
  const head = line.pieces[at] as Piece;
  const cut = head.value.length - (clause.pieces[0] as Piece).value.length;
  const pieces = [...line.pieces.slice(0, at), ...(cut > 0 ? [{ ...head, value: head.value.slice(0, cut) }] : [])];
  return { line: line.line, pieces };
}

/** 一段依据为什么站不住；站得住时回 undefined。 */
function badEvidence(text: string, lessonId: string, ctx: DocsContext): string | undefined {
  const since = ctx.fidelity.get(text);
  if (since !== undefined) return lessonNumber(since) <= lessonNumber(lessonId) ? undefined : `fidelity scenario \`${text}\` runs from ${since} on, not on ${lessonId}`;
  if (text.includes("/") || FILE_EXT.test(text)) return (piPathFiles(text, ctx.pi) ?? []).length > 0 ? undefined : `path \`${text}\` not found in Pi 1.6.0`;
  if (/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(text)) return `\`${text}\` is not a fidelity scenario (fidelity/scenarios.ts, fidelity/mechanisms.ts)`;
  const kind = classifySpan(text);
  const path = kind.kind === "names" && kind.literals.length === 0 && kind.paths.length === 1 ? kind.paths[0] : undefined;
  if (path === undefined) return `\`${text}\` is neither a Pi 1.6.0 name or path nor a fidelity scenario id`;
  return ctx.pi.hasName(path.slice(0, 2).join(".")) ? undefined : `\`${text}\` not found in Pi 1.6.0`;
}

export function checkPiBoundary(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const line = boundaryLine(readme);
  if (!line) return []; // 根本没有 Pi 边界那一行，归模板检查报
  const say = (what: string): string => `${lessonId} README ${HEAD}: line ${line.line}: the Pi 边界 line ${what}`;
  const clause = evidenceClause(line);
  const spans = clause?.pieces.filter((p) => p.code).map((p) => p.value.trim()) ?? [];
  if (!clause || spans.length === 0) {
    return [
      say(
        "names no evidence: end it with （依据：…） citing, in backticks, the Pi 1.6.0 names or files it rests on (tooling/pi-index.json) or the fidelity scenarios that compare it",
      ),
    ];
  }
  const out: string[] = [];
  if (!clause.closed) out.push(say("must end with its evidence clause （依据：…）"));
  for (const text of spans) {
    const bad = badEvidence(text, lessonId, ctx);
    if (bad !== undefined) out.push(say(`cites evidence that does not exist: ${bad}`));
  }
  return out;
}
