// check 的 vitest 配置里的 setupFile：在测试所在的 worker 里，每个测试开始前、结束后同步写一行事件。
// 学习者的循环要是只靠 Promise 空转，worker 再也发不出任何消息（reporter 那边连已跑完的结果都收不全），
// 但开始前同步写下的这一行已经落盘：check 据此知道卡在哪个测试上。
import { appendFileSync } from "node:fs";
import { afterEach, beforeEach } from "vitest";
import { EVENTS_ENV } from "./reporter.ts";

const file = process.env[EVENTS_ENV];
if (file !== undefined) {
  beforeEach((ctx) => appendFileSync(file, `${JSON.stringify({ event: "start", id: ctx.task.id })}\n`));
  afterEach((ctx) => appendFileSync(file, `${JSON.stringify({ event: "finish", id: ctx.task.id })}\n`));
}
