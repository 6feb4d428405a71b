// 坏输入表：钩子——它抛出的、它回的不像样的答复、它改了调用的 id。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import { echoTool } from "../../tooling/assemble-agent.ts";
import type { Hooks } from "../../tooling/lesson.ts";
import { assistant as a, call, text, toolUse, toolResult as r, user as u } from "../../tooling/screenplay.ts";
import { type Row, FIRST, hookRow, secondTurn } from "./harness.ts";

export const ROWS_HOOKS: Row[] = [
  // ── 钩子抛错（s05 起，D16；抛的东西连文字都转不出来是 R4 第 1 类） ──
  ...(
    [
      ["hook-before-throws", "beforeToolCall 抛错", { beforeToolCall: () => { throw new Error("policy down"); } }, "error: hook failed: policy down", []],
      ["hook-after-throws", "afterToolCall 抛错（handler 已经跑过，结果作废）", { afterToolCall: () => { throw new Error("redactor down"); } }, "error: hook failed: redactor down", [{ text: "x" }]],
      ["hook-throws-non-error", "钩子抛的不是 Error", { beforeToolCall: () => { throw 7; } }, "error: hook failed: 7", []],
    ] as [string, string, Hooks, string, Record<string, string>[]][]
  ).map(hookRow),
  {
    id: "hook-throws-null-prototype",
    since: "s05",
    input: "beforeToolCall 抛一个没有原型的对象",
    async run(h) {
      const t = echoTool("a");
      const hooks: Hooks = {
        beforeToolCall: () => {
          throw Object.create(null);
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "a", { text: "x" })), text("done")], { tools: [t.tool], hooks });
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: hook failed: unprintable object"), a("done")], handlerCalls: [] },
  },

  // ── 钩子出了岔子就按拦下处理（R4 第 4 类，s05 起，D28） ──
  ...(
    [
      ["hook-returns-promise-of-block", "beforeToolCall 回一个 Promise（Pi 的钩子是 async 的），它 resolve 成 block", { beforeToolCall: () => Promise.resolve({ type: "block", reason: "no" }) }, 'error: hook failed: beforeToolCall returned a Promise, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-returns-undefined", "beforeToolCall 什么都不回（Pi 里这算放行）", { beforeToolCall: () => undefined }, 'error: hook failed: beforeToolCall returned undefined, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-block-without-reason", "beforeToolCall 回 block 却没有 reason", { beforeToolCall: () => ({ type: "block" }) }, 'error: hook failed: beforeToolCall returned {"type":"block"}, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-pi-shaped-block", "beforeToolCall 回 Pi 写法的 {block: true, reason}", { beforeToolCall: () => ({ block: true, reason: "no" }) }, 'error: hook failed: beforeToolCall returned {"block":true,"reason":"no"}, expected {type: "allow"} or {type: "block", reason}', []],
      ["after-hook-returns-undefined", "afterToolCall 什么都不回（handler 已经跑过，结果作废）", { afterToolCall: () => undefined }, "error: hook failed: afterToolCall returned undefined, expected a string", [{ text: "x" }]],
      ["after-hook-returns-promise", "afterToolCall 回一个 Promise", { afterToolCall: () => Promise.resolve("redacted") }, "error: hook failed: afterToolCall returned a Promise, expected a string", [{ text: "x" }]],
    ] as unknown as [string, string, Hooks, string, Record<string, string>[]][]
  ).map(hookRow),
  hookRow([
    "hook-rewrites-call-id",
    "beforeToolCall 把 call.id 改掉再放行（结果仍回答模型给的 id）",
    {
      beforeToolCall: (c) => {
        c.id = "forged";
        return { type: "allow" };
      },
    },
    "a:x",
    [{ text: "x" }],
  ]),
];
