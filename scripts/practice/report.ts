// check 的中文报告：每项检查一行（✓ 过了、✗ 没过、· 没跑），然后是第一个没过的地方，最后告诉学习者下一步。
import { relative } from "node:path";
import { LESSONS, ROOT, lessonNumber } from "../../tooling/course.ts";
import type { Outcome } from "./checks.ts";

const MARK = { pass: "✓", fail: "✗", skip: "·" } as const;

export function formatReport(outcome: Outcome, solution: boolean): string {
  const { id } = outcome;
  const lines = [`检查 ${relative(ROOT, outcome.file)}${solution ? "（这一课自己的代码）" : ""}`, ""];
  for (const c of outcome.checks) {
    const note = c.status === "skip" && c.note === "" ? "没跑（先把没过的修好）" : c.note;
    lines.push(`  ${MARK[c.status]} ${c.name}${note === "" ? "" : `：${note}`}`);
  }
  lines.push("");
  if (outcome.first !== undefined) {
    lines.push(`第一个没过的 —— ${outcome.first.title}`);
    for (const l of outcome.first.lines) lines.push(`  ${l}`);
    lines.push("");
    lines.push(solution ? "这一课自己的代码没过检查：这是课程的问题，请报告。" : `改完再查：npm run check -- ${id}（加 --watch 每次保存自动重查）`);
    return lines.join("\n");
  }
  const next = LESSONS.find((l) => lessonNumber(l) === lessonNumber(id) + 1);
  if (solution) lines.push(`${id} 自己的代码全部通过。`);
  else if (next === undefined) lines.push(`${id} 过关了！十二课的零件你都亲手写过一遍了。`);
  else lines.push(`${id} 过关了！下一课：npm run practice -- ${next}`);
  return lines.join("\n");
}
