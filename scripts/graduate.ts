// npm run graduate -- 1：毕业练习。把你在 mini Pi 里写过的东西，写成真实 Pi 1.6.0 的扩展或包，装进 Pi 里跑一遍。
//   npm run graduate -- 1            还没有练习文件：写一份（practice/graduation/1-tool.ts）；有了：装进 Pi 跑，两边的对话并排打印，最后说过没过
//   npm run graduate -- 1 --check    只说过没过
//   npm run graduate -- 1 --hint [1-4] [--part 名字]   一级一级的提示
//   npm run graduate -- 1 --solution 用参考答案跑一遍（看过关是什么样子）
//   npm run graduate -- 1 --reset    重新生成练习文件（旧的留一份 .bak）
//   npm run graduate -- 1 --file 路径  检查别处的文件
// Pi 一侧在 Node 24 子进程里跑（Pi 1.6.0 要 Node ≥ 22.19）；要装什么、在装什么，写在 stderr 上。过了退出码 0，没过 1，参数不对或装不上 2。
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { runGraduation } from "../tooling/graduation/check.ts";
import { hintText, parseArgs, USAGE, writeStub } from "../tooling/graduation/cli.ts";
import { solutionPath } from "../tooling/graduation/exercises.ts";
import { learnerTarget, shownPath } from "../tooling/graduation/files.ts";
import { formatGraduation } from "../tooling/graduation/report.ts";
import { preparePi } from "../tooling/graduation/setup.ts";

const args = parseArgs(process.argv.slice(2));
if (typeof args === "string") {
  console.error(`${args}\n${USAGE}`);
  process.exit(2);
}
const target = args.solution ? solutionPath(args.ex) : args.file !== undefined ? resolve(args.file) : learnerTarget(args.ex);

if (args.hint !== undefined) {
  const out = hintText(args.ex, target, args.hint, args.part);
  (out.ok ? console.log : console.error)(out.text);
  process.exit(out.ok ? 0 : 2);
}
if (args.reset || (!existsSync(target) && args.file === undefined && !args.solution)) {
  console.log(writeStub(args.ex, target).join("\n"));
  process.exit(0);
}
if (!existsSync(target)) {
  console.error(`没有 ${shownPath(target)}。`);
  process.exit(2);
}
const ready = preparePi((line) => console.error(line));
if ("problem" in ready) {
  console.error(ready.problem);
  process.exit(2);
}
const outcome = await runGraduation(args.ex, target, shownPath(target), ready.node);
console.log(formatGraduation(outcome, { check: args.check, solution: args.solution }));
process.exitCode = "error" in outcome.pi ? 2 : outcome.ok ? 0 : 1;
