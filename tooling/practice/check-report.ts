// check 的中文报告：每项检查一行（✓ 过了、✗ 没过、· 没轮到），类型和 API 之后是这一课的各个阶段；接着说学习者在第几个阶段、
// 这个阶段要做什么，只讲这个阶段的第一个失败（守的规则、场景、哪一步不同、该重读 README 哪一行），其余的只报数。
// 报告里没有维护者的命令、没有测试框架的输出、没有调用栈；颜色只给想要它的终端。
import { relative } from "node:path";
import { LESSONS, ROOT, lessonNumber } from "../course.ts";
import type { Outcome } from "./run-checks.ts";
import { forLearner } from "./explain.ts";

const MARK = { pass: "✓", fail: "✗", skip: "·" } as const;

/** 报告里说「你在哪个阶段」的那一行从这几个字开始；README「自己写一遍」贴的输出也从这一行开始。 */
export const STAGE_LINE = "你在第";

/** 要不要上色：只有输出是终端、而且没设 NO_COLOR（https://no-color.org，设成什么值都算）时才要。 */
export const wantsColor = (stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean => stream.isTTY === true && env.NO_COLOR === undefined;

const paint = (on: boolean, code: string, text: string): string => (on ? `\x1b[${code}m${text}\x1b[0m` : text);

export function formatReport(outcome: Outcome, solution: boolean, { color = false }: { color?: boolean } = {}): string {
  const { id } = outcome;
  const colour = { pass: "32", fail: "31", skip: "2" } as const;
  const lines = [`检查 ${relative(ROOT, outcome.file)}${solution ? "（这一课自己的代码）" : ""}`, ""];
  for (const c of outcome.checks) {
    const note = c.status === "skip" && c.note === "" ? "没轮到（先把前面的修好）" : c.note;
    lines.push(`  ${paint(color, colour[c.status], MARK[c.status])} ${c.name}${note === "" ? "" : `：${note}`}`);
  }
  lines.push("");
  if (outcome.first !== undefined) {
    const { stage } = outcome;
    if (stage !== undefined) {
      lines.push(paint(color, "1", `${STAGE_LINE} ${stage.current} 阶段（共 ${stage.of} 个）：${stage.stage.title} —— ${stage.stage.asks}`), "");
    }
    const first = outcome.first;
    lines.push(`第一个没过的 —— ${forLearner(first.title) ?? "（说明里只有给维护者的话）"}`);
    const details = [
      ...(first.about === undefined ? [] : [`守的规则：${first.about}`]),
      ...(first.scenario === undefined ? [] : [`场景：${first.scenario}`]),
      ...first.lines,
      ...(first.reread === undefined ? [] : [`再读：${first.reread}`]),
    ];
    for (const l of details) {
      const shown = forLearner(l);
      if (shown !== undefined) lines.push(`  ${shown}`);
    }
    lines.push("");
    if (stage !== undefined && (stage.restHere > 0 || stage.later > 0)) {
      const here = stage.restHere > 0 ? `这一阶段还有 ${stage.restHere} 个没过` : "这一阶段就这一个没过";
      lines.push(stage.later > 0 ? `${here}，后面阶段的 ${stage.later} 个先不用管。` : `${here}。`);
    }
    lines.push(solution ? "这一课自己的代码没过检查：这是课程的问题，请报告。" : `改完再查：npm run check -- ${id}（加 --watch 每次保存自动重查）`);
    return lines.join("\n");
  }
  const next = LESSONS.find((l) => lessonNumber(l) === lessonNumber(id) + 1);
  if (solution) lines.push(`${id} 自己的代码全部通过。`);
  else if (next === undefined) lines.push(`${id} 过关了！十二课的零件你都亲手写过一遍了。`, "接下来是毕业：把它们写成真的 Pi 扩展，装进 Pi 里跑（graduation/README.md）：npm run graduate -- 1");
  else lines.push(`${id} 过关了！下一课：npm run practice -- ${next}`);
  return lines.join("\n");
}

/** 报告从「你在第…阶段」那一行（STAGE_LINE）起到结尾（行尾空格不算），是说学习者卡在哪的那一段，README「自己写一遍」贴的就是它；没有这一段就是 undefined。 */
export function firstFailurePart(report: string): string | undefined {
  const lines = report.split("\n").map((l) => l.trimEnd());
  const at = lines.findIndex((l) => l.startsWith(STAGE_LINE));
  if (at < 0) return undefined;
  while (lines.at(-1) === "") lines.pop();
  return lines.slice(at).join("\n");
}
