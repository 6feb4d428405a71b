// 同一段对话，两边存下的消息并排打印：左边是装着学习者扩展的真实 Pi，右边是 mini Pi（s12）。
// 两条历史先按「同一种消息」对齐（角色、回答的是哪个调用；和 npm run diff 同一个行差异），对不上的那几条各占一行、另一边空着，
// 这样 Pi 开头多出来的 system 消息、某一边多出来或少了的结果，一眼就看得见。

import type { Entry, FidelityTrace } from "../../fidelity/compare.ts";
import type { ScriptedCall } from "../../fidelity/scenarios.ts";
import { diffLines } from "../linediff.ts";
import { padEnd, wrap } from "../display.ts";

/** 对齐用的样子：只看是哪一种消息，不看文字（文字不同正是要并排看的）。 */
function shape(e: Entry): string {
  if (e.role === "toolResult") return `toolResult ${e.toolCallId}`;
  if (e.role === "assistant") return `assistant ${e.calls.join(",")}`;
  return e.role;
}

/** 两条历史对齐成一行一对；某一边没有就是 undefined。 */
export function align(pi: FidelityTrace, mini: FidelityTrace): [Entry | undefined, Entry | undefined][] {
  const rows: [Entry | undefined, Entry | undefined][] = [];
  const diff = pi.length === 0 || mini.length === 0 ? undefined : diffLines(pi.map(shape).join("\n"), mini.map(shape).join("\n"));
  if (diff === undefined) {
    for (let i = 0; i < Math.max(pi.length, mini.length); i++) rows.push([pi[i], mini[i]]);
    return rows;
  }
  let [i, j] = [0, 0];
  let dels: Entry[] = [];
  let adds: Entry[] = [];
  const flush = (): void => {
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) rows.push([dels[k], adds[k]]);
    [dels, adds] = [[], []];
  };
  for (const d of diff) {
    if (d.kind === "same") {
      flush();
      rows.push([pi[i++], mini[j++]]);
    } else if (d.kind === "del") dels.push(pi[i++] as Entry);
    else adds.push(mini[j++] as Entry);
  }
  flush();
  return rows;
}

/** 一条消息写成几行字。calls 是剧本里的调用（id → 名字和参数），助手消息要了哪些调用就写出来。 */
export function entryLines(e: Entry | undefined, calls: ReadonlyMap<string, ScriptedCall>): string[] {
  if (e === undefined) return [];
  switch (e.role) {
    case "system":
      return ["system（Pi 在历史开头声明这次的工具和系统提示）"];
    case "user":
      return [`user：${e.text}`];
    case "assistant": {
      const asked = e.calls.map((id) => {
        const c = calls.get(id);
        return `  → ${id} ${c === undefined ? "?" : `${c.name} ${Object.values(c.args).map(String).join(" ")}`}`;
      });
      return [`assistant：${e.text}${e.errorText === undefined ? "" : `（出错：${e.errorText}）`}`, ...asked];
    }
    case "toolResult":
      return [`${e.toolCallId} ${e.isError ? "✗" : "✓"} ${e.text.replace(/\n+$/, "")}`];
    case "caller":
      return [e.text];
  }
}

/** 两栏并排：每栏 column 格宽，长的折行，中间一道竖线。 */
export function sideBySide(left: string, right: string, pi: FidelityTrace, mini: FidelityTrace, calls: ReadonlyMap<string, ScriptedCall>, column = 37): string[] {
  const cell = (lines: string[]): string[] => lines.flatMap((l) => wrap(l, column));
  const out = [`  ${padEnd(left, column)} │ ${right}`, `  ${"─".repeat(column)}─┼─${"─".repeat(column)}`];
  for (const [p, m] of align(pi, mini)) {
    const [a, b] = [cell(entryLines(p, calls)), cell(entryLines(m, calls))];
    for (let k = 0; k < Math.max(a.length, b.length); k++) out.push(`  ${padEnd(a[k] ?? "", column)} │ ${b[k] ?? ""}`.trimEnd());
  }
  return out;
}

/** 一段对话里模型要过的调用：id → 调用（并排打印时写出名字和参数）。 */
export function scriptedCalls(reply: (n: number, prompt: string) => { kind: string; calls?: ScriptedCall[] } | undefined): Map<string, ScriptedCall> {
  const out = new Map<string, ScriptedCall>();
  for (let n = 0; n < 8; n++) {
    const r = reply(n, "");
    if (r === undefined) break;
    for (const c of r.calls ?? []) out.set(c.id, c);
  }
  return out;
}
