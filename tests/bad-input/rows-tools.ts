// 坏输入表：工具调用——模型给的参数和工具名、handler 抛出的和交回的。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import type { ToolLike } from "../../tooling/lesson.ts";
import { assistant as a, call, text, toolUse, toolResult as r, user as u } from "../../tooling/screenplay.ts";
import { type Row, FIRST, argsRow, nested, secondTurn } from "./harness.ts";

export const ROWS_TOOLS: Row[] = [
  // ── 工具参数（s04 起，D18） ──
  argsRow("args-missing", "参数缺失", {}, 'error: invalid arguments for tool "read": argument "path" is missing'),
  argsRow("args-extra", "多出参数", { path: "x", extra: "y" }, 'error: invalid arguments for tool "read": unexpected argument "extra"'),
  argsRow("args-missing-and-extra", "缺一个、多一个", { file: "x" }, 'error: invalid arguments for tool "read": argument "path" is missing; unexpected argument "file"'),
  argsRow("args-number", "参数不是字符串：数字", { path: 42 }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-null", "参数不是字符串：null", { path: null }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-array", "参数不是字符串：数组", { path: ["a"] }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-object", "参数不是字符串：对象", { path: { p: "a" } }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-not-object-null", "整个参数是 null", null, 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow("args-not-object-string", "整个参数是字符串", "src/main.ts", 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow("args-not-object-array", "整个参数是数组", ["src/main.ts"], 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow(
    "args-missing-prototype-name",
    "缺的参数恰好叫 constructor（Object.prototype 上有同名成员）",
    {},
    'error: invalid arguments for tool "make": argument "constructor" is missing',
    { name: "make", params: ["constructor"] },
  ),

  // ── 没登记的工具、handler 抛错（s04 起；抛的东西连文字都转不出来是 R4 第 1 类） ──
  {
    id: "unknown-tool",
    since: "s04",
    input: "调用没登记的工具，名字里带引号（名字原样放进引号里，不转义）",
    async run(h) {
      const { messages } = await secondTurn(h, [toolUse("", call("c1", 'no"pe', {})), text("done")]);
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", 'error: unknown tool "no"pe"'), a("done")] },
  },
  {
    id: "handler-throws-non-error",
    since: "s04",
    input: "handler 抛的不是 Error（一个字符串）",
    async run(h) {
      const boom: ToolLike = {
        spec: { name: "boom", description: "", input: {} },
        handler: () => {
          throw "plain string";
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "boom", {})), text("done")], { tools: [boom] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: plain string"), a("done")] },
  },
  {
    id: "handler-throws-revoked-proxy",
    since: "s04",
    input: "handler 抛一个撤销了的 Proxy（s05 起也不会被错标成 hook failed）",
    async run(h) {
      const boom: ToolLike = {
        spec: { name: "boom", description: "", input: {} },
        handler: () => {
          const { proxy, revoke } = Proxy.revocable({}, {});
          revoke();
          throw proxy;
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "boom", {})), text("done")], { tools: [boom] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: unprintable object"), a("done")] },
  },

  // ── 工具契约在运行时也算数：handler 交回的不是文字、参数嵌得很深（R4 第 3 类，s04 起，D27） ──
  ...(
    [
      ["handler-returns-promise", "handler 回一个 Promise（照着 Pi 写成 async 的工具）", () => Promise.resolve("late"), 'error: tool "a" returned a Promise, expected a string'],
      ["handler-returns-rejecting-promise", "handler 回一个会 reject 的 Promise", () => Promise.reject(new Error("async failure")), 'error: tool "a" returned a Promise, expected a string'],
      ["handler-returns-number", "handler 回一个数字", () => 42, 'error: tool "a" returned 42, expected a string'],
      ["handler-returns-undefined", "handler 什么都不回", () => undefined, 'error: tool "a" returned undefined, expected a string'],
      ["handler-returns-object", "handler 回一个对象", () => ({ lines: 3 }), 'error: tool "a" returned {"lines":3}, expected a string'],
    ] as [string, string, () => unknown, string][]
  ).map(
    ([id, input, result, content]): Row => ({
      id,
      since: "s04",
      input,
      async run(h) {
        const tool: ToolLike = { spec: { name: "a", description: "", input: {} }, handler: () => result() as string };
        const b = h.agent({ tools: [tool], responses: [text("ok"), toolUse("", call("c1", "a", {})), text("done"), text("later")] });
        await h.mod.runOneTurn(b.agent, "first");
        await h.mod.runOneTurn(b.agent, "second");
        await h.mod.runOneTurn(b.agent, "third");
        await new Promise((resolve) => setImmediate(resolve));
        return { messages: b.all() };
      },
      // 第三轮照常：结果没有毒化历史（s06 起每轮都要给历史拍快照）
      expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", content), a("done"), u("third"), a("later")] },
    }),
  ),
  argsRow("args-nested-deep", "参数嵌了 10,000 层（合法的 JSON）", { path: nested(10_000) }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-bigint", "参数里有 BigInt（不是 JSON，日志行也写得出来）", { path: 10n }, 'error: invalid arguments for tool "read": argument "path" must be a string'),

  // ── 按名字查东西摸不到原型：演示的 read 工具（R4 第 6 类，s04 起） ──
  {
    id: "demo-read-prototype-path",
    since: "s04",
    input: '演示的 read 工具读路径 "constructor"',
    async run(h) {
      const read = h.mod.createDemoTools().find((t) => t.spec.name === "read");
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "read", { path: "constructor" })), text("done")], { tools: read === undefined ? [] : [read] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: no such file: constructor"), a("done")] },
  },
];
