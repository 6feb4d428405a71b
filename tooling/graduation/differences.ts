// 同一段对话，真实 Pi 和 mini Pi 存下的消息哪里不同、每一处为什么。比较用的是保真对照的那一套（fidelity/compare.ts）：
// 先照差异表（fidelity/listed-differences/trace-rows.ts）里这个练习用得上的行消掉已列出的差异，每用到一行就报出它的编号和理由；
// 再把「两边都没让这个调用做成、只是说法不同」的工具结果认出来——那是各自的工具或闸自己写的字，不是差异表的事；
// 剩下的才是表外的不同。练习 3 另外比两边的系统提示里有哪些资料（fidelity/observe.ts 的 promptFacts）。

import { compareTraces, type Entry, type FidelityDifference, type FidelityTrace, rewritePairs } from "../../fidelity/compare.ts";
import { PI_TRACE_DIFFERENCES } from "../../fidelity/listed-differences/trace-rows.ts";
import { type KnownResources, promptFacts } from "../../fidelity/observe.ts";
import { glossaryWords } from "../practice/explain.ts";
import { AGENTS_TEXT, type Exercise, SKILL, scenarioId } from "./exercises.ts";
import type { MiniRun, PiRun } from "./runs.ts";

/** 一处不同的说法：差异表的一行（编号、术语表里的名字、两边各是什么样、为什么）、工具自己的措辞，或者表外的不同。 */
export type Explanation =
  | { kind: "row"; id: string; words: string; pi: string; mini: string; reason: string }
  | { kind: "wording"; call: string; pi: string; mini: string }
  | { kind: "unlisted"; text: string };

/** 一次对话两边的不同（练习 3 跑两次，各有一份）。 */
export type RunDifferences = { label: string; explanations: Explanation[] };

const WORDING = "wording";

/** 两边都是出错的结果、回答同一个调用、文字不同：mini 一边换成 Pi 的文字（只认这种样子）。 */
const wordingRow = (scenario: string): FidelityDifference => ({
  id: WORDING,
  on: "history",
  status: "deliberate",
  scenarios: [scenario],
  pi: "",
  mini: "",
  reason: "",
  reconcile: (pi, mini) =>
    rewritePairs(pi, mini, (p, m) =>
      p.role === "toolResult" && m.role === "toolResult" && p.toolCallId === m.toolCallId && p.isError && m.isError && p.text !== m.text ? [p, { ...m, text: p.text }] : undefined,
    ),
});

const results = (trace: FidelityTrace): Map<string, Extract<Entry, { role: "toolResult" }>> =>
  new Map(trace.flatMap((e) => (e.role === "toolResult" ? [[e.toolCallId, e] as const] : [])));

/** 差异表里这个练习用得上的行，剧本名换成这个练习的（差异表的行只在它列出的剧本上生效）。 */
export const exerciseRows = (ex: Exercise): FidelityDifference[] =>
  PI_TRACE_DIFFERENCES.filter((d) => ex.rows.includes(d.id)).map((d) => ({ ...d, scenarios: [scenarioId(ex)] }));

/** 练习 3 认的资料：包里的 AGENTS.md 和技能。 */
const KNOWN: KnownResources = { agents: [{ label: "AGENTS.md", text: AGENTS_TEXT }], skills: [{ ...SKILL, file: "" }] };

/** 系统提示里有哪些资料：项目说明进没进、技能是全文、索引还是不在（练习 3 用）。 */
export const promptLines = (prompt: string): Record<string, string[]> => promptFacts(prompt, KNOWN, ["项目说明", "技能"], "");

/** 一次对话的两边：先过差异表的行，再认措辞，剩下的是表外的不同。 */
export function explainRun(ex: Exercise, pi: PiRun, mini: MiniRun, words: ReadonlyMap<string, string> = glossaryWords()): Explanation[] {
  const scenario = scenarioId(ex);
  const rows = exerciseRows(ex);
  const verdict = compareTraces(scenario, pi.history, mini.history, [...rows, wordingRow(scenario)]);
  const out: Explanation[] = rows
    .filter((r) => verdict.used.includes(r.id))
    .map((r) => ({ kind: "row", id: r.id, words: words.get(r.id) ?? "", pi: r.pi, mini: r.mini, reason: r.reason }));
  if (verdict.used.includes(WORDING)) {
    const miniResults = results(mini.history);
    for (const [call, p] of results(pi.history)) {
      const m = miniResults.get(call);
      if (m !== undefined && p.isError && m.isError && p.text !== m.text) out.push({ kind: "wording", call, pi: p.text, mini: m.text });
    }
  }
  out.push(...verdict.problems.map((text): Explanation => ({ kind: "unlisted", text })));
  if (ex.n === 3) out.push(...factDifferences(pi.prompts[0] ?? "", mini.prompts[0] ?? ""));
  return out;
}

function factDifferences(piPrompt: string, miniPrompt: string): Explanation[] {
  const [p, m] = [promptLines(piPrompt), promptLines(miniPrompt)];
  return Object.keys(p).flatMap((name) => {
    const [a, b] = [p[name] ?? [], m[name] ?? []];
    return a.join("\n") === b.join("\n") ? [] : [{ kind: "unlisted" as const, text: `系统提示里的「${name}」：Pi 是 ${a.join("、") || "（没有）"}，mini Pi 是 ${b.join("、") || "（没有）"}` }];
  });
}

/** 一个练习两边每次对话的不同，按对话配好（两边的次数不一样时，多出来的那次算表外的不同）。 */
export function explainAll(ex: Exercise, pi: readonly PiRun[], mini: readonly MiniRun[]): RunDifferences[] {
  const words = glossaryWords();
  return ex.runs.map((plan, i) => {
    const [p, m] = [pi[i], mini[i]];
    if (p === undefined || m === undefined) return { label: plan.label, explanations: [{ kind: "unlisted", text: `${p === undefined ? "Pi" : "mini Pi"} 没有跑这一次` }] };
    return { label: plan.label, explanations: explainRun(ex, p, m, words) };
  });
}
