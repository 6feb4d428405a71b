// 毕业检查的真实 Pi 一侧入口：scripts/graduate.ts（经 tooling/graduation/check.ts）用钉死的 Node 24 起这个进程，
// 因为 pi-coding-agent 1.6.0 要 Node ≥ 22.19。它读任务文件，把学习者的扩展或包装进 Pi 跑完练习的对话，结果写进结果文件。
//   node --import tsx fidelity/graduate-side.ts <任务文件> <结果文件>
// 抛错（不是学习者的扩展出错，是 Pi 一侧自己没跑完）也写进结果文件，报告会照实说。

import { readFileSync, writeFileSync } from "node:fs";
import type { GraduationJob, PiGraduation } from "../tooling/graduation/runs.ts";
import { runPiGraduation } from "./pi-graduation.ts";

const [jobFile, out] = process.argv.slice(2);
if (jobFile === undefined || out === undefined) throw new Error("usage: graduate-side.ts <job.json> <result.json>");
const job = JSON.parse(readFileSync(jobFile, "utf8")) as GraduationJob;
let result: PiGraduation;
try {
  result = { node: process.version, runs: await runPiGraduation(job) };
} catch (error) {
  result = { node: process.version, error: error instanceof Error ? error.message : String(error) };
}
writeFileSync(out, JSON.stringify(result));
