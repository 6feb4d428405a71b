// 坏输入表：扩展、命令和监听。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import { expect } from "vitest";
import { echoTool } from "../../tooling/assemble-agent.ts";
import type { RuntimeEventLike } from "../../tooling/lesson.ts";
import { assistant as a, text, user as u } from "../../tooling/screenplay.ts";
import { type Row, FIRST } from "./harness.ts";

export const ROWS_EXTENSIONS: Row[] = [
  // ── 扩展与命令（s09 起，D10） ──
  {
    id: "extension-throws-in-use",
    since: "s09",
    input: "扩展登记了工具、命令、监听之后抛错",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("fine")] });
      await h.mod.runOneTurn(b.agent, "first");
      const heard: string[] = [];
      b.agent.runtime?.use(function bad(api) {
        api.registerTool(echoTool("half").tool);
        api.registerCommand({ name: "half", run: () => "x" });
        api.on("message", (e) => void heard.push(e.type));
        throw new Error("config missing");
      });
      await h.mod.runOneTurn(b.agent, "second");
      return { state: b.state(), half: b.agent.runtime?.runCommand("half"), heard };
    },
    expected: {
      state: { messages: [...FIRST, u("second"), a("fine")], tools: [], resources: [], errors: ['error: extension "bad" failed to load: config missing'] },
      half: 'error: unknown command "half"',
      heard: [],
    },
  },
  {
    id: "extension-tool-without-spec",
    since: "s09",
    input: "扩展登记的工具连 spec 都没有（只有一个 handler）",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use(function noSpec(api) {
        api.registerTool({ handler: () => "x" } as never);
      });
      return { state: b.state() };
    },
    expected: {
      state: { messages: [], tools: [], resources: [], errors: [expect.stringMatching(/^error: extension "noSpec" failed to load: invalid tool: spec: /)] },
    },
  },
  {
    id: "extension-tool-clash",
    since: "s09",
    input: "扩展登记的工具和已有工具重名（同一个扩展里还登记了命令）",
    async run(h) {
      const b = h.agent({ tools: [echoTool("read").tool] });
      b.agent.runtime?.use(function clash(api) {
        api.registerCommand({ name: "cmd", run: () => "x" });
        api.registerTool(echoTool("read").tool);
      });
      return { state: b.state(), cmd: b.agent.runtime?.runCommand("cmd") };
    },
    expected: {
      state: { messages: [], tools: ["read"], resources: [], errors: ['error: extension "clash" failed to load: tool "read" is already registered'] },
      cmd: 'error: unknown command "cmd"',
    },
  },
  {
    id: "extension-duplicate-command",
    since: "s09",
    input: "同一个扩展把同名命令登记两次",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use(function twice(api) {
        api.registerCommand({ name: "go", run: () => "1" });
        api.registerCommand({ name: "go", run: () => "2" });
      });
      return { errors: b.state().errors, go: b.agent.runtime?.runCommand("go") };
    },
    expected: { errors: ['error: extension "twice" failed to load: command "go" is already registered'], go: 'error: unknown command "go"' },
  },
  {
    id: "listener-throws",
    since: "s09",
    input: "事件处理函数抛错（抛的不是 Error）",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("fine")] });
      const got: string[] = [];
      b.agent.runtime?.use((api) =>
        api.on("message", () => {
          throw "oops";
        }),
      );
      b.agent.runtime?.use((api) => api.on("done", (e: RuntimeEventLike) => void got.push(e.type)));
      await h.mod.runOneTurn(b.agent, "first");
      await h.mod.runOneTurn(b.agent, "second");
      return { state: b.state(), got };
    },
    expected: {
      state: { messages: [...FIRST, u("second"), a("fine")], tools: [], resources: [], errors: ['error: handler for "message" failed: oops', 'error: handler for "message" failed: oops'] },
      got: ["done", "done"],
    },
  },
  {
    id: "unknown-command",
    since: "s09",
    input: "跑一个没有的命令，名字里带空格和引号（名字原样放进引号里，不转义）",
    async run(h) {
      const b = h.agent();
      return { result: b.agent.runtime?.runCommand('de"ploy now'), errors: b.state().errors };
    },
    expected: { result: 'error: unknown command "de"ploy now"', errors: [] },
  },
  {
    id: "command-throws",
    since: "s09",
    input: "命令自己抛错",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use((api) =>
        api.registerCommand({
          name: "crash",
          run: () => {
            throw new Error("nope");
          },
        }),
      );
      return { result: b.agent.runtime?.runCommand("crash"), again: b.agent.runtime?.runCommand("crash") };
    },
    expected: { result: 'error: command "crash" failed: nope', again: 'error: command "crash" failed: nope' },
  },

  // ── async 的监听 reject（R4 第 7 类，D29） ──
  {
    id: "listener-rejects",
    since: "s09",
    input: "async 的事件处理函数 reject",
    async run(h) {
      const b = h.agent({ responses: [text("ok")] });
      b.agent.runtime?.use((api) =>
        api.on("done", async () => {
          throw new Error("async boom");
        }),
      );
      await h.mod.runOneTurn(b.agent, "first");
      await new Promise((resolve) => setImmediate(resolve));
      return { state: b.state() };
    },
    expected: { state: { messages: FIRST, tools: [], resources: [], errors: ['error: handler for "done" failed: async boom'] } },
  },

  // ── 扩展从不悄悄丢活（R4 第 8 类，s09 起，D30） ──
  {
    id: "extension-async",
    since: "s09",
    input: "async 扩展：await 前登记一个命令，await 后登记一个工具",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use(async function later(api) {
        api.registerCommand({ name: "early", run: () => "x" });
        await null;
        api.registerTool(echoTool("late").tool);
      });
      await new Promise((resolve) => setImmediate(resolve));
      return { state: b.state(), early: b.agent.runtime?.runCommand("early") };
    },
    expected: {
      state: {
        messages: [],
        tools: [],
        resources: [],
        errors: ['error: extension "later" failed to load: it returned a Promise; an extension must register everything before it returns'],
      },
      early: 'error: unknown command "early"',
    },
  },
  ...(
    [
      ["extension-undefined", "use(undefined)", undefined, 'error: extension "anonymous" failed to load: an extension must be a function, got undefined'],
      ["extension-object", "use 一个对象", { name: "not-a-function" }, 'error: extension "anonymous" failed to load: an extension must be a function, got {"name":"not-a-function"}'],
      ["extension-promise", "use 一个 Promise（比如 import() 的结果）", Promise.resolve({ default: () => {} }), 'error: extension "anonymous" failed to load: an extension must be a function, got a Promise'],
    ] as [string, string, unknown, string][]
  ).map(
    ([id, input, ext, error]): Row => ({
      id,
      since: "s09",
      input,
      async run(h) {
        const b = h.agent();
        b.agent.runtime?.use(ext as never);
        return { errors: b.state().errors };
      },
      expected: { errors: [error] },
    }),
  ),
  {
    id: "extension-nested-clash",
    since: "s09",
    input: "扩展里又 use 了一个扩展，里面那个先占了外面这个要登记的工具名",
    async run(h) {
      const b = h.agent();
      const runtime = b.agent.runtime;
      runtime?.use(function outer(api) {
        api.registerCommand({ name: "outer-cmd", run: () => "x" });
        api.registerTool(echoTool("shared").tool);
        runtime.use(function inner(api2) {
          api2.registerTool(echoTool("shared").tool);
        });
      });
      return { state: b.state(), outer: runtime?.runCommand("outer-cmd") };
    },
    expected: {
      state: { messages: [], tools: ["shared"], resources: [], errors: ['error: extension "outer" failed to load: tool "shared" is already registered'] },
      outer: 'error: unknown command "outer-cmd"',
    },
  },
];
