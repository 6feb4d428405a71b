// 教学检查：链路的步骤（根 README 的「一轮对话的完整链路」，chain-section.ts 读出来），对着 s12 真跑的一轮（chain-run.ts）查。
// 写的人要做到：
//
//   这一节的步骤表（表头第一格是「步骤」）每一行用圆圈数字编号（`①`，一行是两步就写 `⑤⑥`），从 ① 起按表的先后不缺不重；
//   函数那一栏（表头里有「函数」）用反引号写这一轮里跑到的 s12 函数。编号跟着真跑的先后：一步发生在它的函数里最后一个
//   第一次被调用的时候（这一轮要一次工具再回答），每一步都在上一步之后。圆圈数字只当步骤用：这一节里不把规则的一部分写成 `R4 ①`。
//   Mermaid 图的框里标着同样的步骤；从第一个框顺着箭头先到 ①，每一步都走得到下一步，往回的箭头只用来画循环。
//   别的收场（被拒绝、备不齐输入、问满了 maxTurns 次）都画出来：从第一个框走得到的某个框引着 s12 那时的回话
//   （`agent is already processing a prompt`，去掉 `error: ` 和 `:` 之后的细节）。
//   s12 的 code.ts 在做这一步的语句上方写注释 `// ③ …`（一条语句做两步就写 `// ②③ …`），每一步都这样标一次；
//   一次调用按先后做好几步时，可以写一个范围 `// ②–⑦ …` 概括，但它不算标了哪一步。每条注释在这一轮里跑得到，
//   在它标的步骤之前，注释之后最先发生的就是它标的第一步。注释里也不把规则的一部分写成 `R4 ①`。
import { parseMermaid } from "beautiful-mermaid";
import ts from "typescript";
import { lineOf, walk } from "../markdown.ts";
import { identifiersIn } from "../names.ts";
import { callables } from "./chain-names.ts";
import { CHAIN_HEADING, type ChainSection, readChainSection } from "./chain-section.ts";
import { type ChainRun, lineComments, stepsOf } from "./chain-run.ts";
import { mermaidNodes } from "./diagram.ts";

const CIRCLE = (k: number): string => String.fromCodePoint(0x2460 + k - 1);
const showSteps = (steps: readonly number[]): string => steps.map(CIRCLE).join("");
/** 后面跟着圆圈数字的规则编号：`R4 ①`。 */
const RULE_DIGIT = /(?<![A-Za-z0-9_-])((?:R|U|D|F)\d+(?:\.\d+)?)\s*([\u2460-\u2473])/g;

/** 图里引一轮回话时用的字：去掉 `error: `，到第一个 `:` 或 `,` 为止。 */
export const endingWording = (content: string): string => content.replace(/^error:\s*/, "").split(/[:,]/)[0]?.trim() ?? "";

type Row = { line: number; first: string; steps: number[]; functions: string[] };

/** 步骤表的每一行：第一格的编号，函数那一栏里反引号写的名字。 */
function stepRows(table: NonNullable<ChainSection["table"]>): Row[] {
  const fnColumn = table.header.findIndex((c) => c.includes("函数"));
  return table.rows.map((row) => {
    const first = row.text[0] ?? "";
    const functions: string[] = [];
    const cell = fnColumn >= 0 ? row.cells[fnColumn] : undefined;
    walk(cell === undefined ? [] : [cell], (n) => {
      if (n.type === "inlineCode") functions.push(...identifiersIn(n.value.replace(/"[^"]*"|'[^']*'/g, " ")));
    });
    return { line: row.line, first, steps: stepsOf(first), functions };
  });
}

export function checkChainSteps(readme: string, finalCode: string, run: ChainRun): string[] {
  const say = (what: string): string => `README.md ${CHAIN_HEADING}: ${what}`;
  const chain = readChainSection(readme);
  if (chain === undefined) return [say("section missing")];
  const out: string[] = [];

  // ── 写成 `R4 ①` 的规则 ──
  walk(chain.section.nodes, (n) => {
    if (n.type !== "text" && n.type !== "inlineCode" && n.type !== "code") return;
    for (const m of n.value.matchAll(RULE_DIGIT)) {
      const line = lineOf(n) + (n.type === "code" ? 1 : 0) + (n.value.slice(0, m.index).match(/\n/g)?.length ?? 0);
      out.push(say(`line ${line}: \`${m[1]} ${m[2]}\` writes a part of ${m[1]} with the step digit ${m[2]}; here circled digits are steps only, name the part in words`));
    }
  });

  // ── 步骤表，对着真跑的一轮 ──
  if (chain.table === undefined) return [...out, say("no step table (a table whose first header cell is 步骤)")];
  const rows = stepRows(chain.table);
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
  /** 一行的步骤在这一轮里发生在哪：它的函数里最后一个第一次被调用的时候。 */
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

  // ── 链路图 ──
  const { diagram } = chain;
  if (diagram === undefined) out.push(say("no ```mermaid diagram of the chain"));
  else out.push(...checkDiagram(diagram.body, diagram.line, steps, run).map(say));

  // ── s12 code.ts 里的步骤注释（对着表查；表本身不对时，先改表） ──
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
  /** 从 `from` 走得到的框；`stopAtSteps` 时走到标了步骤的框就停，不再往下走。 */
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

