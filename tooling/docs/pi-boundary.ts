/**
 * Docs check: Pi 边界的依据 (the `> Pi 边界：…` line of the title block). What a README writer must do to pass:
 *
 *   End the Pi 边界 line with its evidence, one clause in full-width brackets: `（依据：…）`, optionally followed
 *   by `。`. Inside it, every inline code span is evidence and must exist: a Pi 1.6.0 name (`Agent.prompt`, the first two
 *   parts are checked) or path (`packages/…`, `docs/x.md`, short `agent/…`, a bare `agent-loop.ts`), as the Pi trace
 *   resolves them (tooling/pi-index.json); or the id of a fidelity scenario (fidelity/scenarios.ts,
 *   fidelity/mechanisms.ts) that already runs on this lesson. At least one span. Words between them are free:
 *   `（依据：`packages/agent/src/agent.ts` 的 `Agent.prompt`；对照 `provider-error`）`.
 *   The clause is Pi's, so the 词汇纪律 check does not read it (like the Pi trace); a `path` 的 `Name` pair in
 *   it is held to the Pi file check like anywhere else.
 */
import { lessonNumber } from "../course.ts";
import { HEAD, type InlineLine, type Piece, lineText, linesOf, parseReadme } from "../markdown.ts";
import type { DocsContext } from "./context.ts";
import { piPathFiles } from "./pi-trace.ts";
import { FILE_EXT, classifySpan } from "./spans.ts";

const BOUNDARY = /^Pi 边界[：:]/;
const OPEN = /[（(]依据[：:]/;
const CLOSE = /[）)]\s*[。.]?\s*$/;

/** The Pi 边界 line of a README's title block, if it has one. */
export function boundaryLine(readme: string): InlineLine | undefined {
  const doc = parseReadme(readme);
  return linesOf(doc.head.filter((n) => n.type === "blockquote")).find((l) => BOUNDARY.test(lineText(l).trim()));
}

/**
 * The evidence clause of a line: the pieces from `（依据：` to the end of the line, and whether it closes there; undefined
 * when the line has no such clause.
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

/** A line without its evidence clause (for the checks that leave the clause to this one). */
export function withoutEvidence(line: InlineLine): InlineLine {
  const clause = evidenceClause(line);
  if (!clause) return line;
  const at = line.pieces.length - clause.pieces.length;
  const head = line.pieces[at] as Piece;
  const cut = head.value.length - (clause.pieces[0] as Piece).value.length;
  const pieces = [...line.pieces.slice(0, at), ...(cut > 0 ? [{ ...head, value: head.value.slice(0, cut) }] : [])];
  return { line: line.line, pieces };
}

/** Why one evidence span does not hold, or undefined when it does. */
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
  if (!line) return []; // no Pi 边界 line at all is the template check's
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
