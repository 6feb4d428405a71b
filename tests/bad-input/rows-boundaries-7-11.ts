// 坏输入表：issue 13 的每道边界，第 7–11 类。每行写明不可信的输入和预期的结构化结果（形状见 ./harness.ts）。
import { it } from "vitest";
import { echoTool } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import { assistant as a, start, text, user as u } from "../../tooling/screenplay.ts";
import { type Row, FIRST, brokenForOneTurn, nested } from "./harness.ts";

export const ROWS_BOUNDARIES_7_11: Row[] = [
  // ── 第 7 类：一轮前后调用的东西也在 R4 里（D29） ──────────────
  brokenForOneTurn(
    "loader-throws",
    "s08",
    "loader.load() 抛错（读项目资料失败）",
    "loader",
    {
      load: () => {
        throw new Error("disk on fire");
      },
    },
    "error: could not start the turn: disk on fire",
  ),
  {
    id: "output-throws",
    since: "safeOutput",
    input: "Output.log 抛错（终端关了）",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still stored")] });
      await h.mod.runOneTurn(b.agent, "first");
      const broken = {
        log: () => {
          throw new Error("EPIPE");
        },
      };
      b.agent.output = broken;
      if (has(h.id, "modes")) b.agent.mode = new h.mod.PrintMode(broken);
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, messages: b.all() };
    },
    expected: { reply: a("still stored"), messages: [...FIRST, u("second"), a("still stored")] },
  },
  {
    id: "render-throws",
    since: "s10",
    input: "运行模式的 render 抛错",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still stored")] });
      await h.mod.runOneTurn(b.agent, "first");
      b.agent.mode = {
        render: () => {
          throw new Error("screen gone");
        },
      };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, state: b.state() };
    },
    expected: {
      reply: a("still stored"),
      state: { messages: [...FIRST, u("second"), a("still stored")], tools: [], resources: [], errors: ["error: mode failed to render: screen gone"] },
    },
  },
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

  // ── 第 8 类：扩展从不悄悄丢活（s09 起，D30） ─────────────────
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

  // ── 第 9 类：一次一轮（s04 起，D33） ─────────────────────────
  {
    id: "two-turns-at-once",
    since: "oneTurn",
    input: "同一个 agent 上不等第一轮跑完就发起第二轮",
    async run(h) {
      const b = h.agent({ responses: [text("answer A"), text("answer C")] });
      const [first, second] = await Promise.all([h.mod.runOneTurn(b.agent, "A"), h.mod.runOneTurn(b.agent, "B")]);
      await h.mod.runOneTurn(b.agent, "C");
      return { first, second, messages: b.all() };
    },
    expected: {
      first: a("answer A"),
      second: a("error: agent is already processing a prompt", "error"),
      messages: [u("A"), a("answer A"), u("C"), a("answer C")],
    },
  },

  // ── 第 10 类：监听改不了打印的东西（s10 起，D34） ─────────────
  {
    id: "listener-rewrites-event",
    since: "s10",
    input: "监听把收到的事件内容改掉",
    async run(h) {
      const out: string[] = [];
      const b = h.agent({ responses: [text("the real answer")] });
      b.agent.mode = new h.mod.PrintMode({ log: (line) => void out.push(line) });
      b.agent.runtime?.use((api) =>
        api.on("message", (e) => {
          if (e.type === "message") e.content = "HACKED";
        }),
      );
      await h.mod.runOneTurn(b.agent, "first");
      return { out };
    },
    expected: { out: ["the real answer"] },
  },

  // ── 第 11 类：一直不回话的 provider（s03 起，D35） ────────────
  {
    id: "provider-never-answers",
    since: "s03",
    input: "provider 一直不交出第一个事件（core 没有取消，只能等；它一回话就照常收尾）",
    async run(h) {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const b = h.agent();
      b.agent.provider = {
        async *stream() {
          await gate;
          yield* text("finally") as never[];
        },
      };
      let done = false;
      const first = h.mod.runOneTurn(b.agent, "hang").then((reply) => ((done = true), reply));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const pending = !done;
      release();
      return { pending, reply: await first, messages: b.all() };
    },
    expected: { pending: true, reply: a("finally"), messages: [u("hang"), a("finally")] },
  },
  {
    id: "provider-never-answers-meanwhile",
    since: "oneTurn",
    input: "provider 一直不交出第一个事件，等的时候同一个 agent 再来一轮（被拒绝，什么都不存）",
    async run(h) {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const b = h.agent();
      b.agent.provider = {
        async *stream() {
          await gate;
          yield* text("finally") as never[];
        },
      };
      const first = h.mod.runOneTurn(b.agent, "hang");
      const meanwhile = await h.mod.runOneTurn(b.agent, "meanwhile");
      release();
      return { meanwhile, reply: await first, messages: b.all() };
    },
    expected: {
      meanwhile: a("error: agent is already processing a prompt", "error"),
      reply: a("finally"),
      messages: [u("hang"), a("finally")],
    },
  },
];
