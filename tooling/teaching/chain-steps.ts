/**
 * Teaching check: 链路的步骤 (the root README's section `## 一轮对话的完整链路`, against a real run of s12: chain-run.ts).
 * What a writer must do to pass:
 *
 *   The section's step table (first header cell 「步骤」) numbers every row with circled digits (`①`, or `⑤⑥` for a row that
 *   is two steps), ① upward without gaps, in table order; its function column (header with 「函数」) names in backticks s12
 *   functions that run in a turn. The numbers follow the run: a step happens where the last of its functions is first
 *   entered, in a turn that asks for one tool and then answers, and each step happens after the one before it.
 *   A circled digit is a step and nothing else: a rule's parts are not written `R4 ①` in this section.
 *   The Mermaid diagram numbers the same steps in its node labels; from its first node, the arrows reach ① before any
 *   other step, and every step is reached from the step before it; an arrow back to an earlier step only closes a loop.
 *   It draws every other way a turn ends (refused, could not start, asked maxTurns times): a node reachable from the first
 *   node quotes what s12 answers then (`agent is already processing a prompt`, without `error: ` and details after `:`).
 *   s12's code.ts says where each step happens with a comment above the statement that does it: `// ③ …` (or `// ②③ …`
 *   for a statement that does two). Each step is marked so, one by one; a range `// ②–⑦ …` above a call that does several
 *   in order may sum them up, but marks none. Each mark is passed in the run, before its steps happen, and the first
 *   step to happen after it is the mark's first. No comment writes a rule's part as `R4 ①`.
 */
import { parseMermaid } from "beautiful-mermaid";
import type { Nodes, Table } from "mdast";
import { toString } from "mdast-util-to-string";
import ts from "typescript";
import { lineOf, parseReadme, partsOf, walk } from "../markdown.ts";
import { identifiersIn } from "../names.ts";
import { CHAIN_HEADING, callables } from "./chain.ts";
import { type ChainRun, lineComments, stepsOf } from "./chain-run.ts";
import { mermaidNodes } from "./diagram.ts";

const CIRCLE = (k: number): string => String.fromCodePoint(0x2460 + k - 1);
const showSteps = (steps: readonly number[]): string => steps.map(CIRCLE).join("");
/** A rule code with a circled digit after it: `R4 ①`. */
const RULE_DIGIT = /(?<![A-Za-z0-9_-])((?:R|U|D|F)\d+(?:\.\d+)?)\s*([\u2460-\u2473])/g;

/** The wording a turn's answer is quoted by: without `error: `, up to the first `:` or `,`. */
export const endingWording = (content: string): string => content.replace(/^error:\s*/, "").split(/[:,]/)[0]?.trim() ?? "";

type Row = { line: number; first: string; steps: number[]; functions: string[] };

function stepTable(nodes: readonly Nodes[]): Row[] | undefined {
  let table: Table | undefined;
  walk(nodes, (n) => {
    if (table === undefined && n.type === "table" && toString(n.children[0]?.children[0] ?? { type: "text", value: "" }).trim() === "步骤") table = n;
  });
  if (table === undefined) return undefined;
  const [head, ...rows] = table.children;
  const fnColumn = head?.children.findIndex((c) => toString(c).includes("函数")) ?? -1;
  return rows.map((row) => {
    const first = toString(row.children[0] ?? { type: "text", value: "" }).trim();
    const functions: string[] = [];
    walk(fnColumn >= 0 && row.children[fnColumn] ? [row.children[fnColumn]] : [], (n) => {
      if (n.type === "inlineCode") functions.push(...identifiersIn(n.value.replace(/"[^"]*"|'[^']*'/g, " ")));
    });
    return { line: lineOf(row), first, steps: stepsOf(first), functions };
  });
}

export function checkChainSteps(readme: string, finalCode: string, run: ChainRun): string[] {
  const say = (what: string): string => `README.md ${CHAIN_HEADING}: ${what}`;
  const part = partsOf(parseReadme(readme)).find((p) => p.name.startsWith(CHAIN_HEADING));
  if (part === undefined) return [say("section missing")];
  const out: string[] = [];

  // ── rule markers ──
  walk(part.nodes, (n) => {
    if (n.type !== "text" && n.type !== "inlineCode" && n.type !== "code") return;
    for (const m of n.value.matchAll(RULE_DIGIT)) {
      const line = lineOf(n) + (n.type === "code" ? 1 : 0) + (n.value.slice(0, m.index).match(/\n/g)?.length ?? 0);
      out.push(say(`line ${line}: \`${m[1]} ${m[2]}\` writes a part of ${m[1]} with the step digit ${m[2]}; here circled digits are steps only, name the part in words`));
    }
  });

  // ── the step table, against the run ──
  const rows = stepTable(part.nodes);
  if (rows === undefined) return [...out, say("no step table (a table whose first header cell is 步骤)")];
  for (const r of rows) if (r.steps.length === 0) out.push(say(`line ${r.line}: the step table's row 「${r.first}」 has no step number: number every step (①, ②, …)`));
  const numbered = rows.filter((r) => r.steps.length > 0);
  const all = numbered.flatMap((r) => r.steps);
  const expected = all.map((_, i) => i + 1);
  if (all.join(",") !== expected.join(",")) out.push(say(`the step table numbers its rows ${showSteps(all)}; number them ${showSteps(expected)}, top to bottom`));

  const fns = callables(finalCode);
  const firstCall = new Map<string, number>();
  run.trace.forEach((e, i) => {
    if (e.kind === "call" && !firstCall.has(e.name)) firstCall.set(e.name, i);
  });
  /** Where a row's step happens in the run: when the last of its functions is first entered. */
  const at = new Map<number, { index: number; fn: string }>();
  for (const r of numbered) {
    const observed = r.functions.filter((f) => fns.has(f) && firstCall.has(f));
    if (observed.length === 0) {
      out.push(say(`line ${r.line}: step ${showSteps(r.steps)} names no s12 function that runs in a turn`));
      continue;
    }
    const last = observed.reduce((a, b) => ((firstCall.get(b) ?? 0) > (firstCall.get(a) ?? 0) ? b : a));
    for (const k of r.steps) at.set(k, { index: firstCall.get(last) ?? 0, fn: last });
  }
  const steps = [...at.keys()].sort((a, b) => a - b);
  const beforeOrder = out.length;
  for (let i = 1; i < steps.length; i++) {
    const prev = at.get(steps[i - 1] ?? 0);
    const cur = at.get(steps[i] ?? 0);
    if (prev === undefined || cur === undefined || cur.index >= prev.index || prev.fn === cur.fn) continue;
    out.push(
      say(`step ${CIRCLE(steps[i] ?? 0)} (\`${cur.fn}\`) happens before step ${CIRCLE(steps[i - 1] ?? 0)} (\`${prev.fn}\`) in s12: number the steps in the order they happen`),
    );
  }
  const tableOk = out.length === beforeOrder && !out.some((m) => m.includes("step table") || m.includes("names no s12 function"));

  // ── the diagram ──
  let diagram: { body: string; line: number } | undefined;
  walk(part.nodes, (n) => {
    if (diagram === undefined && n.type === "code" && n.lang === "mermaid") diagram = { body: n.value, line: lineOf(n) };
  });
  if (diagram === undefined) out.push(say("no ```mermaid diagram of the chain"));
  else out.push(...checkDiagram(diagram.body, diagram.line, steps, run).map(say));

  // ── the step comments of s12's code.ts (against the table; when the table itself is off, that is the fault to fix first) ──
  if (tableOk) out.push(...checkComments(run, at, steps).map(say));
  const sf = ts.createSourceFile("code.ts", finalCode, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  for (const c of lineComments(sf).values()) {
    for (const m of c.text.matchAll(RULE_DIGIT)) out.push(say(`s12_packages/code.ts line ${c.line}: \`${m[1]} ${m[2]}\` writes a part of ${m[1]} with the step digit ${m[2]}; name the part in words`));
  }
  return [...new Set(out)];
}

function checkDiagram(body: string, line: number, steps: readonly number[], run: ChainRun): string[] {
  const out: string[] = [];
  const where = `diagram (line ${line})`;
  const labels = mermaidNodes(body).labels;
  const edges = parseMermaid(body).edges;
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const stepsAt = new Map<string, number[]>();
  for (const [id, label] of labels) {
    const s = stepsOf(label.replace(/<[^>]*>/g, " "));
    if (s.length > 0) stepsAt.set(id, s);
  }
  const nodesOf = (k: number): string[] => [...stepsAt].filter(([, s]) => s.includes(k)).map(([id]) => id);
  /** Nodes reachable from `from`; with `stopAtSteps`, numbered nodes are reached but not walked through. */
  const reach = (from: readonly string[], stopAtSteps: boolean): Set<string> => {
    const seen = new Set<string>();
    const todo = from.flatMap((id) => next.get(id) ?? []);
    while (todo.length > 0) {
      const id = todo.pop() ?? "";
      if (seen.has(id)) continue;
      seen.add(id);
      if (!stopAtSteps || !stepsAt.has(id)) todo.push(...(next.get(id) ?? []));
    }
    return seen;
  };
  const drawn = [...new Set([...stepsAt.values()].flat())].sort((a, b) => a - b);
  if (drawn.join(",") !== steps.join(",")) out.push(`the ${where} numbers steps ${showSteps(drawn)}, the step table ${showSteps(steps)}`);
  const start = edges[0]?.source;
  if (start === undefined) return [...out, `the ${where} has no arrows`];
  const firstSteps = [...reach([start], true)].flatMap((id) => stepsAt.get(id) ?? []);
  const firstMet = [...new Set(firstSteps)].sort((a, b) => a - b);
  if (firstMet.length > 0 && firstMet.join(",") !== "1") out.push(`the ${where}'s arrows from its first node reach step ${showSteps(firstMet)} before any other; they should reach ① first`);
  for (const k of steps.slice(1)) {
    const reached = reach(nodesOf(k - 1), false);
    if (!nodesOf(k).some((id) => reached.has(id))) out.push(`the ${where} draws no arrow path from step ${CIRCLE(k - 1)} to step ${CIRCLE(k)}`);
  }
  for (const e of edges) {
    const from = Math.max(...(stepsAt.get(e.source) ?? [0]));
    const to = Math.min(...(stepsAt.get(e.target) ?? [Number.POSITIVE_INFINITY]));
    if (to < from && !reach([e.target], false).has(e.source)) out.push(`the ${where} draws an arrow from step ${CIRCLE(from)} back to step ${CIRCLE(to)} that closes no loop`);
  }
  const reachable = reach([start], false);
  reachable.add(start);
  for (const ending of run.endings) {
    const wording = endingWording(ending.content);
    const drawnAt = [...labels].filter(([id, label]) => reachable.has(id) && label.includes(wording));
    if (drawnAt.length === 0) out.push(`the ${where} does not draw the path where ${ending.path}: s12 answers "${ending.content}"; draw it, with a node that says "${wording}"`);
  }
  return out;
}

function checkComments(run: ChainRun, at: ReadonlyMap<number, { index: number; fn: string }>, steps: readonly number[]): string[] {
  const out: string[] = [];
  const passed = new Map<number, number>();
  run.trace.forEach((e, i) => {
    if (e.kind === "comment" && !passed.has(e.line)) passed.set(e.line, i);
  });
  const marked = new Set<number>();
  for (const c of run.comments) {
    const where = `s12_packages/code.ts line ${c.line} (\`// ${c.text.length > 40 ? `${c.text.slice(0, 40)}…` : c.text}\`)`;
    c.listed.forEach((k) => marked.add(k));
    const unknown = c.steps.filter((k) => !at.has(k));
    if (unknown.length > 0) out.push(`${where} marks step ${showSteps(unknown)}, which the step table does not have`);
    const t = passed.get(c.line);
    if (t === undefined) {
      out.push(`${where}: this step comment is never passed in a turn; put it right above the statement that does the step`);
      continue;
    }
    const early = c.steps.filter((k) => (at.get(k)?.index ?? Number.POSITIVE_INFINITY) < t);
    for (const k of early) out.push(`${where} says step ${CIRCLE(k)} happens from here, but it has already happened (\`${at.get(k)?.fn ?? ""}\`)`);
    const after = steps.filter((k) => (at.get(k)?.index ?? -1) > t).sort((a, b) => (at.get(a)?.index ?? 0) - (at.get(b)?.index ?? 0));
    const firstOwn = c.steps.find((k) => !early.includes(k));
    if (firstOwn !== undefined && after[0] !== undefined && after[0] !== firstOwn && at.get(after[0])?.index !== at.get(firstOwn)?.index) {
      out.push(`${where} marks ${CIRCLE(firstOwn)}, but the next step to happen after it is ${CIRCLE(after[0])} (\`${at.get(after[0])?.fn ?? ""}\`)`);
    }
  }
  for (const k of steps) if (!marked.has(k)) out.push(`step ${CIRCLE(k)} is marked nowhere in s12_packages/code.ts: put \`// ${CIRCLE(k)} …\` above the statement where it happens`);
  return out;
}

