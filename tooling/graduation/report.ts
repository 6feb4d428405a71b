// 毕业检查的中文报告，给学习者看：两边的对话并排、两边每一处不同的说法（差异表的行、工具自己的措辞、表外的不同），
// 最后是每条要求过没过，没过的那条说清楚怎么回事、怎么改。--check 只要最后这一段。
// 报告里没有维护者的命令、没有调用栈、没有颜色；路径写成学习者认得的样子。

import { EXERCISES, type Exercise } from "./exercises.ts";
import type { GraduationOutcome } from "./check.ts";
import type { Explanation, RunDifferences } from "./differences.ts";
import type { Requirement } from "./requirements.ts";
import { scriptedCalls, sideBySide } from "./side-by-side.ts";

const MARK = { pass: "✓", fail: "✗", skip: "·" } as const;

/** 报告开头一行：第几个练习、它要什么。 */
export const exerciseLine = (ex: Exercise): string => `毕业练习 ${ex.n}（共 ${EXERCISES.length} 个）：${ex.title} —— ${ex.asks}`;

function explanationLines(e: Explanation): string[] {
  if (e.kind === "row") return [`  ${e.id} ${e.words}（fidelity/DIFFERENCES.md）`, `      Pi：${e.pi}`, `      mini Pi：${e.mini}`, `      为什么：${e.reason}`];
  if (e.kind === "wording") return [`  ${e.call}：两边都没让这个调用做成，只是说法不同（各自的工具或闸自己写的字，不是差异表的事）`, `      Pi：${e.pi}`, `      mini Pi：${e.mini}`];
  return [`  表外：${e.text}`];
}

function differenceLines(d: RunDifferences): string[] {
  const unlisted = d.explanations.filter((e) => e.kind === "unlisted").length;
  const head = d.explanations.length === 0 ? "两边存下的消息一模一样。" : `两边的不同${unlisted === 0 ? "，每一处都有说法" : `，其中 ${unlisted} 处差异表里没有（不影响过不过，但值得看一眼）`}：`;
  return [head, ...d.explanations.flatMap(explanationLines)];
}

/** 两边的对话并排，每一次对话后面跟着两边的不同。 */
export function transcriptLines(outcome: GraduationOutcome): string[] {
  if (!("runs" in outcome.pi)) return [];
  const calls = scriptedCalls(outcome.ex.dialogue.reply);
  const lines: string[] = [];
  outcome.pi.runs.forEach((run, i) => {
    const mini = outcome.mini[i];
    lines.push(`同一段对话，两边存下的消息${run.label === "" ? "" : `（${run.label}）`}：`, "");
    lines.push(...sideBySide("Pi 1.6.0（装着你写的）", "mini Pi（s12）", run.history, mini?.history ?? [], calls), "");
    if (run.learner.length === 0 && outcome.ex.n !== 3) lines.push(`（Pi 没装上你写的扩展，左边是 Pi 自己的样子：${outcome.ex.n === 1 ? "它自带的 read 没有围栏" : "没有闸，rm 照跑"}。）`, "");
    const diff = outcome.differences[i];
    if (diff !== undefined) lines.push(...differenceLines(diff), "");
  });
  return lines;
}

function requirementLines(r: Requirement): string[] {
  const note = r.status === "skip" ? "：没轮到（先把上面的修好）" : "";
  return [`  ${MARK[r.status]} ${r.name}${note}`, ...r.lines.map((l) => `      ${l}`)];
}

/** 过了以后下一步做什么。 */
function nextStep(ex: Exercise): string {
  const next = EXERCISES.find((e) => e.n === ex.n + 1);
  if (next !== undefined) return `毕业练习 ${ex.n} 过了：Pi 照你写的做了。下一个：npm run graduate -- ${next.n}`;
  return `毕业练习 ${ex.n} 过了。三个练习都做完，就剩最后一步：照 graduation/README.md 最后一节，把它们装进你自己的 pi，接上你自己的模型。`;
}

/** 判定那一段：每条要求一行，没过的下面几行说清楚；最后一句是下一步。 */
export function verdictLines(outcome: GraduationOutcome, solution = false): string[] {
  const { ex } = outcome;
  if (!("runs" in outcome.pi)) {
    return [`Pi 一侧没跑完：${outcome.pi.error}`, "这不是你写的东西的问题，是检查自己出了岔子，请报告。"];
  }
  const lines = [`在 Pi 里检查 ${outcome.shown}：`, ...outcome.requirements.flatMap(requirementLines), ""];
  if (outcome.ok) lines.push(solution ? `参考答案过了：过关就是这个样子。` : nextStep(ex));
  else if (solution) lines.push("参考答案没过：这是课程的问题，请报告。");
  else lines.push(`还没过。改完再查：npm run graduate -- ${ex.n}（卡住了要提示：npm run graduate -- ${ex.n} --hint）`);
  return lines;
}

/** 整份报告；check 为 true 时不打印对话和不同，只要判定。 */
export function formatGraduation(outcome: GraduationOutcome, { check = false, solution = false }: { check?: boolean; solution?: boolean } = {}): string {
  const node = "node" in outcome.pi ? outcome.pi.node : "?";
  const head = [exerciseLine(outcome.ex), `装进 Pi 1.6.0（Node ${node}）跑一遍${check ? "" : "，同一段对话再让 mini Pi（s12）跑一遍"}。`, ""];
  return [...head, ...(check ? [] : transcriptLines(outcome)), ...verdictLines(outcome, solution)].join("\n");
}
