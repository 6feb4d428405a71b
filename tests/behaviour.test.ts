// 行为测试：每条写一次，对引入它的那一课及之后的每一课都跑。类型只增不够，后面的课还得「做得到」前面教过的事。
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { type Feature, has } from "../tooling/features.ts";
import type { Call, LessonModule, TestAgent } from "../tooling/lesson.ts";
import { type Script, echoTool, makeAgent, pushMessage, scriptedProvider } from "../tooling/agent.ts";
import { forLessonsFrom } from "./support/for-lessons.ts";
import { call, text, toolUse } from "../tooling/script.ts";

// ── s01 起：一轮对话，R4 ① ──────────────────────────────────
forLessonsFrom("s01", (id, load) => {
  it("一轮对话恰好存下 user + assistant 两条消息", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("好的"));
    const { agent, messages } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "你好");
    expect(messages().map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(reply).toMatchObject({ role: "assistant", content: "好的", stopReason: "stop" });
  });

  it("R4 ①：provider 抛错不外抛，变成 stopReason 为 error 的助手消息并写回历史", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => [{ type: "throw", message: "boom 503" }]);
    const { agent, messages } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "hi");
    expect(reply.stopReason).toBe("error");
    expect(reply.content).toContain("boom 503");
    expect(messages().at(-1)).toEqual(reply);
  });
});

// ── R7：core 碰不到进程的输出流，出错的路上也一样 ───────────────
/** console 的每个方法和 process.stdout / stderr 的 write，被碰一下记一笔（并且不真的输出）。 */
async function streamTouches(run: () => Promise<unknown>): Promise<string[]> {
  const touched: string[] = [];
  const methods = ["log", "info", "warn", "error", "debug", "trace", "dir", "table", "group", "groupCollapsed", "time", "timeEnd", "timeLog", "count", "assert"] as const;
  const spies = [
    ...methods.map((m) => vi.spyOn(console, m).mockImplementation(() => void touched.push(`console.${m}`))),
    vi.spyOn(process.stdout, "write").mockImplementation(() => (touched.push("process.stdout.write"), true)),
    vi.spyOn(process.stderr, "write").mockImplementation(() => (touched.push("process.stderr.write"), true)),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return touched;
}

/** 一轮对话会走的每条路，从引入它的课起：正常、provider 抛错、流断、没收尾、未知工具、工具抛错、上限、钩子抛错、扩展出错。 */
const R7_PATHS: { name: string; needs?: Feature; script: Script; setup?: (agent: TestAgent) => void }[] = [
  { name: "正常回答", script: () => text("看得见") },
  { name: "provider 抛错", script: () => [{ type: "throw", message: "boom 503" }] },
  { name: "流中途断了", needs: "stream", script: () => [{ type: "message_start" }, { type: "text_delta", text: "半" }, { type: "throw", message: "reset" }] },
  { name: "流没有收尾", needs: "stream", script: () => [{ type: "message_start" }, { type: "text_delta", text: "半" }] },
  { name: "未知工具、工具抛错", needs: "toolLoop", script: (_i, n) => (n === 0 ? toolUse("", call("c1", "nope", {}), call("c2", "boom", {})) : text("看得见")) },
  { name: "问满 maxTurns", needs: "toolLoop", script: () => toolUse("again", call("c1", "boom", {})) },
  {
    name: "钩子抛错",
    needs: "hooks",
    script: (_i, n) => (n === 0 ? toolUse("", call("c1", "boom", {})) : text("看得见")),
    setup: (agent) => {
      agent.hooks = { beforeToolCall: () => { throw new Error("before"); }, afterToolCall: () => { throw new Error("after"); } };
    },
  },
  {
    name: "扩展出错",
    needs: "extensions",
    script: () => text("看得见"),
    setup: (agent) => {
      agent.runtime?.use(() => { throw new Error("broken extension"); });
      agent.runtime?.use((api) => api.on("message", () => { throw new Error("broken handler"); }));
    },
  },
];

describe("R7：core 的输出只经过 Output，正常和出错的路上都碰不到 console 和 process.stdout / stderr", () => {
  forLessonsFrom("s01", (id, load) => {
    it("每条路上都没碰进程的输出流，写出的行都到了 Output", async () => {
      const mod = await load();
      const boom = { spec: { name: "boom", description: "", input: {} }, handler: (): never => { throw new Error("tool exploded"); } };
      for (const path of R7_PATHS.filter((p) => p.needs === undefined || has(id, p.needs))) {
        for (const mode of has(id, "modes") ? (["PrintMode", "JsonMode"] as const) : ([undefined] as const)) {
          const { provider } = scriptedProvider(id, path.script);
          const out: string[] = [];
          const output = { log: (line: string) => void out.push(line) };
          const { agent, lines } = makeAgent(id, mod, { provider, tools: [boom], mode: mode === undefined ? undefined : new mod[mode](output) });
          path.setup?.(agent);
          const touched = await streamTouches(() => mod.runOneTurn(agent, "hi"));
          expect(touched, `${path.name}${mode ? `（${mode}）` : ""}`).toEqual([]);
          expect([...lines, ...out].length, `${path.name}: core 的输出到了 Output`).toBeGreaterThan(0);
        }
      }
    });
  });
});

// ── s02 起：工具清单来自 registry ──────────────────────────
forLessonsFrom("tools", (id, load) => {
  it("发给 provider 的工具清单取自 registry，登记了新工具，下一轮就看得到", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("ok"));
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    await mod.runOneTurn(agent, "1");
    agent.registry?.register(echoTool("b").tool);
    await mod.runOneTurn(agent, "2");
    expect(inputs.map((input) => input.tools?.map((t) => t.name))).toEqual([["a"], ["a", "b"]]);
    expect(inputs[0].tools?.[0]).toEqual(echoTool("a").tool.spec);
  });

  it("同名工具登记两次是一个清楚的错误，原来的工具不被替换", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    registry.register(echoTool("read").tool);
    const other = { ...echoTool("read").tool, spec: { ...echoTool("read").tool.spec, description: "impostor" } };
    expect(() => registry.register(other)).toThrow(/"read" is already registered/);
    expect(registry.getSpecs().map((s) => s.description)).toEqual(["read tool"]);
  });
});

// ── s03 起：事件流 ─────────────────────────────────────────
forLessonsFrom("stream", (id, load) => {
  it("按顺序拼起流里的文字", async () => {
    const mod = await load();
    const pieces = ["一", "二", "三", "四"];
    const { provider } = scriptedProvider(id, () => [
      { type: "message_start" },
      ...pieces.map((t) => ({ type: "text_delta" as const, text: t })),
      { type: "message_end", stopReason: "stop" },
    ]);
    const { agent } = makeAgent(id, mod, { provider });
    expect((await mod.runOneTurn(agent, "数数")).content).toBe("一二三四");
  });

  it("流中途抛错：只得到一条 error 助手消息，保留已收到的文字，并说明原因", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => [{ type: "message_start" }, { type: "text_delta", text: "半句" }, { type: "throw", message: "connection reset" }]);
    const { agent, messages } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "hi");
    expect(messages().filter((m) => m.role === "assistant")).toEqual([reply]);
    expect(reply).toEqual({ role: "assistant", content: "半句\nerror: connection reset", stopReason: "error" });
  });

  it("流没发 message_end 就结束：一条 error 助手消息，说明原因", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => [{ type: "message_start" }, { type: "text_delta", text: "x" }]);
    const { agent } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "hi");
    expect(reply).toMatchObject({ stopReason: "error", content: "x\nerror: stream ended without message_end" });
  });

  it("message_end 之后的事件不再读", async () => {
    const mod = await load();
    const reply = await mod.collectAssistantMessage(
      (async function* () {
        yield { type: "text_delta" as const, text: "a" };
        yield { type: "message_end" as const, stopReason: "stop" };
        yield { type: "text_delta" as const, text: "b" };
      })(),
    );
    expect(reply).toEqual({ role: "assistant", content: "a", stopReason: "stop" });
  });
});

// ── s03 起：一直不回话的 provider（第 11 类，D35） ────────────
forLessonsFrom("stream", (id, load) => {
  it("provider 一直不回话：这一轮就一直等（core 没法取消它，见 README）；等的时候同一个 agent 再来一轮会被拒绝，历史不动；它一回话就照常收尾，之后照常", async () => {
    const mod = await load();
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const provider = {
      async *stream() {
        calls++;
        if (calls === 1) await answered;
        yield { type: "message_start" as const };
        yield { type: "text_delta" as const, text: calls === 1 ? "终于" : "ok" };
        yield { type: "message_end" as const, stopReason: "stop" };
      },
    };
    const { agent, messages } = makeAgent(id, mod, { provider });
    let settled = false;
    const first = mod.runOneTurn(agent, "hang").then((reply) => ((settled = true), reply));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled, "still waiting for the provider").toBe(false);
    expect(messages()).toEqual([{ role: "user", content: "hang" }]);
    expect(await mod.runOneTurn(agent, "meanwhile")).toEqual({ role: "assistant", content: "error: agent is already processing a prompt", stopReason: "error" });
    expect(messages(), "the refused turn stored nothing").toEqual([{ role: "user", content: "hang" }]);
    release();
    expect(await first).toEqual({ role: "assistant", content: "终于", stopReason: "stop" });
    expect((await mod.runOneTurn(agent, "next")).content).toBe("ok");
    expect(messages().map((m) => m.content)).toEqual(["hang", "终于", "next", "ok"]);
  });
});

// ── s04 起：工具循环，R4 ②，R5 ──────────────────────────────
forLessonsFrom("toolLoop", (id, load) => {
  it("每次回答存成一条助手消息（要了工具的是 toolUse），后面按调用顺序跟着各自的结果", async () => {
    const mod = await load();
    const a = echoTool("a");
    const { provider } = scriptedProvider(id, (_input, n) =>
      n === 0 ? toolUse("先查", call("c1", "a", { text: "x" }), call("c2", "a", { text: "y" })) : text("查完了"),
    );
    const { agent, messages } = makeAgent(id, mod, { provider, tools: [a.tool] });
    const reply = await mod.runOneTurn(agent, "go");
    expect(messages().map((m) => [m.role, m.content, m.stopReason ?? m.toolCallId])).toEqual([
      ["user", "go", undefined],
      ["assistant", "先查", "toolUse"],
      ["toolResult", "a:x", "c1"],
      ["toolResult", "a:y", "c2"],
      ["assistant", "查完了", "stop"],
    ]);
    expect(reply.content).toBe("查完了");
  });

  it("provider 看得到上一步工具的结果（带 toolCallId）", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "a", { text: "x" })) : text("ok")));
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    await mod.runOneTurn(agent, "go");
    expect(inputs[1].messages.at(-1)).toEqual({ role: "toolResult", toolCallId: "c1", content: "a:x" });
  });

  it("未知工具 → error 结果点名这个工具，循环继续，provider 看得到", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "nope", {})) : text("换个办法")));
    const { agent } = makeAgent(id, mod, { provider });
    expect((await mod.runOneTurn(agent, "go")).content).toBe("换个办法");
    expect(inputs[1].messages.at(-1)?.content).toBe('error: unknown tool "nope"');
  });

  it("参数缺失、不是字符串、多出来：error 结果点名参数，handler 不被调用", async () => {
    const mod = await load();
    const a = echoTool("read", ["path"]);
    const bad = [{}, { path: 42 }, { path: "x", extra: "y" }];
    const { provider, inputs } = scriptedProvider(id, (_i, n) =>
      n === 0 ? toolUse("", ...bad.map((input, i) => call(`c${i}`, "read", input))) : text("ok"),
    );
    const { agent } = makeAgent(id, mod, { provider, tools: [a.tool] });
    await mod.runOneTurn(agent, "go");
    const results = inputs[1].messages.filter((m) => m.role === "toolResult").map((m) => m.content);
    expect(results).toEqual([
      'error: invalid arguments for tool "read": argument "path" is missing',
      'error: invalid arguments for tool "read": argument "path" must be a string',
      'error: invalid arguments for tool "read": unexpected argument "extra"',
    ]);
    expect(a.calls).toEqual([]);
  });

  it("handler 抛错 → error: <message>，循环继续", async () => {
    const mod = await load();
    const boom = { spec: { name: "boom", description: "", input: {} }, handler: (): string => { throw new Error("kaboom"); } };
    const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "boom", {})) : text("ok")));
    const { agent } = makeAgent(id, mod, { provider, tools: [boom] });
    expect((await mod.runOneTurn(agent, "go")).content).toBe("ok");
    expect(inputs[1].messages.at(-1)?.content).toBe("error: kaboom");
  });

  it("R4 ①：工具之后 provider 流抛错 → 本轮助手消息 stopReason error，循环结束", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, (_i, n) =>
      n === 0 ? toolUse("", call("c1", "a", { text: "x" })) : [{ type: "throw", message: "overloaded" }],
    );
    const { agent, messages } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    const reply = await mod.runOneTurn(agent, "go");
    expect(reply).toEqual({ role: "assistant", content: "error: overloaded", stopReason: "error" });
    expect(messages().at(-1)).toEqual(reply);
    expect(inputs).toHaveLength(2);
  });

  it("R5：模型一直要工具，循环在 maxTurns 次调用后停下，结果是 stop 并写明 max turns reached", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, (_i, n) => toolUse("", call(`c${n}`, "a", { text: "x" })));
    const { agent, messages } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    pushMessage(agent, { role: "user", content: "loop" });
    const reply = await mod.runEventedToolLoop(agent, 3);
    expect(inputs).toHaveLength(3);
    expect(reply).toEqual({ role: "assistant", content: "max turns reached", stopReason: "stop" });
    expect(messages().at(-1)).toEqual(reply);
  });

  it("R5：默认上限是 8", async () => {
    const mod = await load();
    expect(mod.DEFAULT_MAX_TURNS).toBe(8);
    const { provider, inputs } = scriptedProvider(id, (_i, n) => toolUse("", call(`c${n}`, "a", { text: "x" })));
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    await mod.runOneTurn(agent, "loop");
    expect(inputs).toHaveLength(8);
  });

  it("回答不是以 toolUse 收尾时，其中的调用不执行，循环结束", async () => {
    const mod = await load();
    const a = echoTool("a");
    const { provider } = scriptedProvider(id, () => [{ type: "tool_call", call: call("c1", "a", { text: "x" }) }, { type: "message_end", stopReason: "stop" }]);
    const { agent, messages } = makeAgent(id, mod, { provider, tools: [a.tool] });
    await mod.runOneTurn(agent, "go");
    expect(a.calls).toEqual([]);
    expect(messages().map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

/** 一个会在执行时往 registry 登记新工具 late 的工具 add；模型第一次就调它，之后只回文字。 */
async function midTurnRegistration(id: string, mod: LessonModule) {
  const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "add", {})) : text("ok")));
  const holder: { register?: () => void } = {};
  const add = { spec: { name: "add", description: "", input: {} }, handler: () => (holder.register?.(), "added") };
  const { agent } = makeAgent(id, mod, { provider, tools: [add] });
  holder.register = () => agent.registry?.register(echoTool("late").tool);
  return { agent, mod, toolNamesSeen: () => inputs.map((i) => i.tools?.map((t) => t.name)) };
}

// 工具清单在一轮之内何时刷新：s04–s05 每次请求都现取，s06 起以本轮快照为准（EVOLUTION.md 决策 D20）。
forLessonsFrom(
  "toolLoop",
  (id, load) => {
    it("s06 之前：一轮之内新登记的工具，下一次请求就出现在清单里", async () => {
      const { agent, mod, toolNamesSeen } = await midTurnRegistration(id, await load());
      await mod.runOneTurn(agent, "1");
      expect(toolNamesSeen()).toEqual([["add"], ["add", "late"]]);
    });
  },
  { before: "snapshot" },
);

// ── s05 起：钩子 ───────────────────────────────────────────
forLessonsFrom("hooks", (id, load) => {
  it("block：handler 不被调用，结果写明被拦下和原因，循环继续", async () => {
    const mod = await load();
    const rm = echoTool("rm", ["path"]);
    const ls = echoTool("ls", ["dir"]);
    const { provider, inputs } = scriptedProvider(id, (_i, n) =>
      n === 0 ? toolUse("", call("c1", "rm", { path: "a" }), call("c2", "ls", { dir: "." })) : text("ok"),
    );
    const hooks = { beforeToolCall: (c: Call) => (c.name === "rm" ? { type: "block" as const, reason: "needs approval" } : { type: "allow" as const }) };
    const { agent } = makeAgent(id, mod, { provider, tools: [rm.tool, ls.tool], hooks });
    expect((await mod.runOneTurn(agent, "go")).content).toBe("ok");
    expect(rm.calls).toEqual([]);
    expect(ls.calls).toEqual([{ dir: "." }]);
    expect(inputs[1].messages.filter((m) => m.role === "toolResult").map((m) => m.content)).toEqual(["error: blocked: needs approval", "ls:."]);
  });

  it("afterToolCall 可以改写结果", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    registry.register(echoTool("a").tool);
    const result = mod.executeToolCall(registry, { afterToolCall: (_c, r) => r.toUpperCase() }, call("c9", "a", { text: "x" }));
    expect(result).toEqual({ role: "toolResult", toolCallId: "c9", content: "A:X" });
  });

  it("钩子抛错 → error 结果，不崩", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    const a = echoTool("a");
    registry.register(a.tool);
    const hooks = { beforeToolCall: (): never => { throw new Error("hook exploded"); } };
    expect(mod.executeToolCall(registry, hooks, call("c1", "a", { text: "x" })).content).toBe("error: hook failed: hook exploded");
    expect(mod.executeToolCall(registry, { afterToolCall: (): never => { throw new Error("after exploded"); } }, call("c2", "a", { text: "x" })).content).toBe(
      "error: hook failed: after exploded",
    );
    expect(a.calls).toHaveLength(1);
  });
});

// ── s06 起：每轮快照，model ───────────────────────────────
forLessonsFrom("snapshot", (id, load) => {
  it("一轮之内新登记的工具不进本轮，下一轮才出现", async () => {
    const { agent, mod, toolNamesSeen } = await midTurnRegistration(id, await load());
    await mod.runOneTurn(agent, "1");
    await mod.runOneTurn(agent, "2");
    expect(toolNamesSeen()).toEqual([["add"], ["add"], ["add", "late"]]);
  });

  it("一轮之内别处写进 state 的消息不进本轮的请求，下一轮才看得到", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "note", {})) : text("ok")));
    const holder: { write?: () => void } = {};
    const note = { spec: { name: "note", description: "", input: {} }, handler: () => (holder.write?.(), "noted") };
    const { agent } = makeAgent(id, mod, { provider, tools: [note] });
    holder.write = () => pushMessage(agent, { role: "user", content: "sneaked in" });
    await mod.runOneTurn(agent, "1");
    expect(inputs[1].messages.map((m) => m.content)).not.toContain("sneaked in");
    await mod.runOneTurn(agent, "2");
    expect(inputs[2].messages.map((m) => m.content)).toContain("sneaked in");
  });

  it("快照是整份复制：改 state 不影响已拍下的快照", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("ok"));
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    await mod.runOneTurn(agent, "1");
    const snapshot = mod.createTurnSnapshot(mod.buildProviderInput(agent));
    await mod.runOneTurn(agent, "2");
    agent.registry?.register(echoTool("b").tool);
    expect(snapshot.messages).toHaveLength(2);
    expect(snapshot.tools?.map((t) => t.name)).toEqual(["a"]);
  });

  it("model 在 AgentState 里，按它挑 provider；快照和 ProviderInput 里都没有 model", async () => {
    const mod = await load();
    const slow = scriptedProvider(id, () => text("from slow"));
    const fast = scriptedProvider(id, () => text("from fast"));
    const { agent } = makeAgent(id, mod, { provider: slow.provider });
    agent.providers = { fast: fast.provider };
    expect((await mod.runOneTurn(agent, "1")).content).toBe("from slow");
    agent.state.model = "fast";
    expect((await mod.runOneTurn(agent, "2")).content).toBe("from fast");
    expect(Object.keys(fast.inputs[0])).not.toContain("model");
    expect(Object.keys(mod.createTurnSnapshot(mod.buildProviderInput(agent)))).not.toContain("model");
  });

  it("一轮之内改 model 不影响本轮，下一轮生效", async () => {
    const mod = await load();
    const other = scriptedProvider(id, () => text("other"));
    const holder: { switch?: () => void } = {};
    const sw = { spec: { name: "switch", description: "", input: {} }, handler: () => (holder.switch?.(), "switched") };
    const main = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "switch", {})) : text("main")));
    const { agent } = makeAgent(id, mod, { provider: main.provider, tools: [sw] });
    agent.providers = { other: other.provider };
    holder.switch = () => void (agent.state.model = "other");
    expect((await mod.runOneTurn(agent, "1")).content).toBe("main");
    expect((await mod.runOneTurn(agent, "2")).content).toBe("other");
  });
});

// ── s06 起：快照够深——拍完以后输入里够得着的一切都改不到它 ─────────────
/** 把 value 里够得着的每个对象、数组、字符串字段都改掉：数组加一项，对象加一个键，字符串换掉。 */
function mutateEverything(value: unknown, seen = new Set<object>()): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  const record = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(record)) {
    mutateEverything(child, seen);
    if (typeof child === "string") record[key] = `${child}·mutated`;
  }
  if (Array.isArray(value)) value.push({ role: "user", content: "mutated" });
  else record.mutated = "yes";
}

describe("快照（s06 起）：整份深拷贝，改输入里够得着的任何东西（登记的 spec、消息、数组）都碰不到它", () => {
  forLessonsFrom("snapshot", (id, load) => {
    it("createTurnSnapshot 之后把输入改个遍，快照一个字不变", async () => {
      const mod = await load();
      const { provider } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("先看看", call("c1", "read", { path: "a" })) : text("ok")));
      const read = echoTool("read", ["path"]);
      const { agent } = makeAgent(id, mod, { provider, tools: [read.tool] });
      await mod.runOneTurn(agent, "1");
      const input = mod.buildProviderInput(agent);
      const snapshot = mod.createTurnSnapshot(input);
      const before = structuredClone(snapshot);
      mutateEverything(input);
      mutateEverything(read.tool.spec); // 登记在 registry 里的那一份
      expect(snapshot).toEqual(before);
    });

    it("工具改了自己登记时交出的 spec 对象：registry 存的是自己的一份（D29），本轮和下一轮的请求都看不到这个改动", async () => {
      const mod = await load();
      const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "shape", {})) : text("ok")));
      const shape = {
        spec: { name: "shape", description: "before", input: {} as Record<string, string> },
        handler: (): string => {
          shape.spec.description = "after";
          shape.spec.input.extra = "added";
          return "reshaped";
        },
      };
      const { agent } = makeAgent(id, mod, { provider, tools: [shape] });
      await mod.runOneTurn(agent, "1");
      await mod.runOneTurn(agent, "2");
      expect(inputs.map((i) => i.tools?.[0])).toEqual([
        { name: "shape", description: "before", input: {} },
        { name: "shape", description: "before", input: {} },
        { name: "shape", description: "before", input: {} },
      ]);
    });
  });
});

// ── s07 起：会话树 ─────────────────────────────────────────
forLessonsFrom("sessionTree", (id, load) => {
  it("append 挂在当前叶子下；currentPath 从根到叶子", async () => {
    const mod = await load();
    const tree = new mod.SessionTree();
    const a = tree.append({ role: "user", content: "a" });
    const b = tree.append({ role: "assistant", content: "b", stopReason: "stop" });
    expect([a.parentId, b.parentId]).toEqual([null, a.id]);
    expect(tree.currentPath().map((m) => m.content)).toEqual(["a", "b"]);
  });

  it("moveTo 到不存在的 id：清楚的错误，树不变", async () => {
    const mod = await load();
    const tree = new mod.SessionTree();
    tree.append({ role: "user", content: "a" });
    const before = [tree.allEntries(), tree.currentPath()];
    expect(() => tree.moveTo("nope")).toThrow(/no entry with id "nope"/);
    expect([tree.allEntries(), tree.currentPath()]).toEqual(before);
  });

  it("分支不丢东西：moveTo 再 append 后旧分支还在，移回去路径和原来一模一样", async () => {
    const mod = await load();
    const tree = new mod.SessionTree();
    const root = tree.append({ role: "user", content: "q" });
    tree.append({ role: "assistant", content: "a1", stopReason: "stop" });
    const oldLeaf = tree.append({ role: "user", content: "old" });
    const oldPath = tree.currentPath();
    tree.moveTo(root.id);
    tree.append({ role: "assistant", content: "a2", stopReason: "stop" });
    expect(tree.allEntries().map((e) => e.content)).toEqual(["q", "a1", "old", "a2"]);
    tree.moveTo(oldLeaf.id);
    expect(tree.currentPath()).toEqual(oldPath);
  });

  it("toolCallId 和 stopReason 经过树原样还原", async () => {
    const mod = await load();
    const tree = new mod.SessionTree();
    const msgs = [
      { role: "user" as const, content: "go" },
      { role: "assistant" as const, content: "", stopReason: "toolUse" },
      { role: "toolResult" as const, toolCallId: "call_7", content: "r" },
      { role: "assistant" as const, content: "boom", stopReason: "error" },
    ];
    for (const m of msgs) tree.append(m);
    expect(tree.currentPath()).toEqual(msgs);
  });

  it("buildProviderInput 只取当前路径：另一支上的消息不发给 provider", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("ok"));
    const { agent } = makeAgent(id, mod, { provider });
    await mod.runOneTurn(agent, "first");
    await mod.runOneTurn(agent, "second");
    const tree = agent.state.messages as InstanceType<typeof mod.SessionTree>;
    tree.moveTo(tree.allEntries()[1].id);
    await mod.runOneTurn(agent, "third");
    expect(inputs[2].messages.map((m) => m.content)).toEqual(["first", "ok", "third"]);
  });
});

// ── s08 起：资源进系统提示 ─────────────────────────────────
forLessonsFrom("resources", (id, load) => {
  const resources = [
    { kind: "agents" as const, name: "AGENTS.md", content: "Use pnpm." },
    { kind: "skill" as const, name: "release", content: "Cut a release.\nstep 1\nstep 2" },
    { kind: "prompt" as const, name: "style", content: "Answer briefly." },
  ];

  it("系统提示由资源拼成：项目说明全文、技能只进索引、追加提示在末尾；tools 照旧在", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("ok"));
    const { agent } = makeAgent(id, mod, { provider, resources, tools: [echoTool("a").tool] });
    await mod.runOneTurn(agent, "hi");
    const prompt = inputs[0].systemPrompt ?? "";
    expect(prompt).toContain("Use pnpm.");
    expect(prompt).toContain("release: Cut a release.");
    expect(prompt).not.toContain("step 2");
    expect(prompt.trimEnd().endsWith("Answer briefly.")).toBe(true);
    expect(inputs[0].tools?.map((t) => t.name)).toEqual(["a"]);
  });

  it("没有资源：系统提示仍是合法字符串，绝不出现 undefined", async () => {
    const mod = await load();
    const prompt = mod.buildSystemPrompt([]);
    expect(typeof prompt).toBe("string");
    expect(prompt).not.toContain("undefined");
  });

  it("系统提示在一轮开头定下，写进快照", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "a", { text: "x" })) : text("ok")));
    const { agent } = makeAgent(id, mod, { provider, resources, tools: [echoTool("a").tool] });
    await mod.runOneTurn(agent, "hi");
    expect(inputs[1].systemPrompt).toBe(inputs[0].systemPrompt);
    expect(mod.createTurnSnapshot(mod.buildProviderInput(agent)).systemPrompt).toBe(inputs[0].systemPrompt);
  });
});

// ── s09 起：扩展 ───────────────────────────────────────────
forLessonsFrom("extensions", (id, load) => {
  it("扩展登记的工具走同一条执行链：beforeToolCall 能拦下它", async () => {
    const mod = await load();
    const ext = echoTool("ext_tool");
    const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "ext_tool", { text: "x" })) : text("ok")));
    const hooks = { beforeToolCall: () => ({ type: "block" as const, reason: "no extensions today" }) };
    const { agent } = makeAgent(id, mod, { provider, hooks });
    agent.runtime?.use((api) => api.registerTool(ext.tool));
    await mod.runOneTurn(agent, "go");
    expect(inputs[0].tools?.map((t) => t.name)).toEqual(["ext_tool"]);
    expect(inputs[1].messages.at(-1)?.content).toBe("error: blocked: no extensions today");
    expect(ext.calls).toEqual([]);
  });

  it("循环把 message 和 done 事件发给 on 注册的处理函数", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("look", call("c1", "a", { text: "x" })) : text("done!")));
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    const seen: string[] = [];
    agent.runtime?.use((api) => {
      api.on("message", (e) => void seen.push(e.type === "message" ? e.content : "?"));
      api.on("done", () => void seen.push("<done>"));
    });
    await mod.runOneTurn(agent, "go");
    expect(seen).toEqual(["look", "a:x", "done!", "<done>"]);
  });

  it("use() 里抛错的扩展：什么都不留下，错误记成结构化消息，不影响别的扩展和这一轮", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("fine"));
    const { agent } = makeAgent(id, mod, { provider });
    const runtime = agent.runtime;
    if (runtime === undefined) throw new Error("runtime missing");
    runtime.use(function bad(api) {
      api.registerTool(echoTool("half").tool);
      api.registerCommand({ name: "half", run: () => "x" });
      throw new Error("config missing");
    });
    runtime.use((api) => api.registerCommand({ name: "ok", run: () => "works" }));
    expect(runtime.errors).toEqual(['error: extension "bad" failed to load: config missing']);
    expect(agent.registry?.getSpecs()).toEqual([]);
    expect(runtime.runCommand("half")).toBe('error: unknown command "half"');
    expect(runtime.runCommand("ok")).toBe("works");
    expect((await mod.runOneTurn(agent, "hi")).content).toBe("fine");
  });

  it("处理函数抛错：记下来，别的处理函数照收事件，这一轮照常结束", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("fine"));
    const { agent } = makeAgent(id, mod, { provider });
    const got: string[] = [];
    agent.runtime?.use((api) => api.on("message", () => { throw new Error("listener bug"); }));
    agent.runtime?.use((api) => api.on("message", (e) => void got.push(e.type)));
    expect((await mod.runOneTurn(agent, "hi")).content).toBe("fine");
    expect(got).toEqual(["message"]);
    expect(agent.runtime?.errors).toEqual(['error: handler for "message" failed: listener bug']);
  });

  it("装完以后再登记（比如在事件处理函数里）会被清楚地拒绝，不会悄悄丢掉", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("fine"));
    const { agent } = makeAgent(id, mod, { provider });
    agent.runtime?.use(function late(api) {
      api.on("done", () => api.registerTool(echoTool("later").tool));
    });
    expect((await mod.runOneTurn(agent, "hi")).content).toBe("fine");
    expect(agent.registry?.getSpecs()).toEqual([]);
    expect(agent.runtime?.errors).toEqual(['error: handler for "done" failed: extension "late" tried to register tool "later" after it finished loading']);
  });

  it("命令按名字跑；未知命令、命令抛错都是清楚的消息；重名登记是错误", async () => {
    const mod = await load();
    const runtime = new mod.ExtensionRuntime(new mod.ToolRegistry());
    runtime.use((api) => {
      api.registerCommand({ name: "hello", run: () => "hi there" });
      api.registerCommand({ name: "crash", run: () => { throw new Error("nope"); } });
    });
    expect(runtime.runCommand("hello")).toBe("hi there");
    expect(runtime.runCommand("missing")).toBe('error: unknown command "missing"');
    expect(runtime.runCommand("crash")).toBe('error: command "crash" failed: nope');
    runtime.use(function dup(api) {
      api.registerCommand({ name: "hello", run: () => "again" });
    });
    expect(runtime.errors.at(-1)).toBe('error: extension "dup" failed to load: command "hello" is already registered');
    expect(runtime.runCommand("hello")).toBe("hi there");
  });
});

// ── s10 起：运行模式 ───────────────────────────────────────
forLessonsFrom("modes", (id, load) => {
  it("JsonMode 每个事件一行，内容里有换行、引号、控制字符、非 ASCII 也每行都能解析", async () => {
    const mod = await load();
    const hostile = 'line1\nline2 "quoted" \\ \u0000\u001b[31m 中文 🙂 \u2028\u2029 end';
    const { provider } = scriptedProvider(id, () => text(hostile));
    const out: string[] = [];
    const { agent } = makeAgent(id, mod, { provider, mode: new mod.JsonMode({ log: (l) => void out.push(l) }) });
    await mod.runOneTurn(agent, "hi");
    const printed = out.join("\n").split("\n");
    expect(printed).toHaveLength(2);
    expect(printed.map((line) => JSON.parse(line))).toEqual([{ type: "message", content: hostile }, { type: "done" }]);
    expect(out.join("")).not.toMatch(/[\u2028\u2029]/);
  });

  it("呈现的事件来自这一课真实的循环：PrintMode 只打最终回答", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("look", call("c1", "a", { text: "x" })) : text("final answer")));
    const out: string[] = [];
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool], mode: new mod.PrintMode({ log: (l) => void out.push(l) }) });
    await mod.runOneTurn(agent, "go");
    expect(out).toEqual(["final answer"]);
  });
});

// ── s11 起：信任 ───────────────────────────────────────────
forLessonsFrom("trust", (id, load) => {
  const secret = { kind: "agents" as const, name: "AGENTS.md", content: "EXFILTRATE-THE-KEYS" };

  it("不信任的项目：资料一份都不加载，永远到不了系统提示", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("ok"));
    const skill = { kind: "skill" as const, name: "evil", content: "EVIL-SKILL" };
    const { agent } = makeAgent(id, mod, { provider, resources: [secret, skill], trust: "untrusted" });
    await mod.runOneTurn(agent, "hi");
    expect(agent.loader?.load("untrusted")).toEqual([]);
    expect(inputs[0].systemPrompt).not.toMatch(/EXFILTRATE|EVIL/);
  });

  it("信任的项目：全部加载", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("ok"));
    const { agent } = makeAgent(id, mod, { provider, resources: [secret], trust: "trusted" });
    await mod.runOneTurn(agent, "hi");
    expect(agent.loader?.load("trusted")).toEqual([secret]);
    expect(inputs[0].systemPrompt).toContain("EXFILTRATE-THE-KEYS");
  });
});

// ── R6（s11 起）：信任只管加载，执行工具时从不看它 ─────────────
describe("R6（s11 起）：执行工具从不看信任——同一串调用，信任与否执行得一模一样，读信任的次数与工具多少无关", () => {
  const secret = { kind: "agents" as const, name: "AGENTS.md", content: "PROJECT-RULES" };
  const callArb = fc.record({
    name: fc.constantFrom("a", "b", "boom", "nope"),
    input: fc.oneof(fc.constant({ text: "x" }), fc.constant({ x: "1", y: "2" }), fc.dictionary(fc.constantFrom("text", "x", "y", "z"), fc.oneof(fc.string(), fc.integer()))),
  });

  forLessonsFrom("trust", (id, load) => {
    /** 跑一轮：模型一次要 calls 这些工具，再收尾。记下历史、handler 和钩子看到了什么、agent.trust 被读了几次。 */
    async function turn(mod: LessonModule, trust: "trusted" | "untrusted", calls: Call[]) {
      const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 && calls.length > 0 ? toolUse("", ...calls) : text("done")));
      const a = echoTool("a");
      const b = echoTool("b", ["x", "y"]);
      const boom = { spec: { name: "boom", description: "", input: {} }, handler: (): never => { throw new Error("tool exploded"); } };
      const hooked: string[] = [];
      const hooks = { beforeToolCall: (c: Call) => (hooked.push(c.name), { type: "allow" as const }), afterToolCall: (_c: Call, r: string) => (hooked.push(r), r) };
      const { agent, messages } = makeAgent(id, mod, { provider, tools: [a.tool, b.tool, boom], hooks, resources: [secret], trust });
      let reads = 0;
      Object.defineProperty(agent, "trust", { get: () => (reads++, trust), enumerable: true, configurable: true });
      await mod.runOneTurn(agent, "go");
      return { messages: messages(), handled: [a.calls, b.calls], hooked, reads, systemPrompt: inputs[0]?.systemPrompt ?? "" };
    }

    it("任意一串调用（已知、未知、参数不对、抛错）", async () => {
      const mod = await load();
      const baseline = await turn(mod, "trusted", []);
      await fc.assert(
        fc.asyncProperty(fc.array(callArb, { maxLength: 6 }), async (specs) => {
          const calls = specs.map((c, i) => call(`c${i}`, c.name, c.input));
          const trusted = await turn(mod, "trusted", calls);
          const untrusted = await turn(mod, "untrusted", calls);
          // 信任管了加载：不信任时项目资料进不了系统提示
          expect(trusted.systemPrompt).toContain("PROJECT-RULES");
          expect(untrusted.systemPrompt).not.toContain("PROJECT-RULES");
          // 执行一模一样：历史、handler 收到的参数、钩子看到的
          expect(untrusted.messages).toEqual(trusted.messages);
          expect(untrusted.handled).toEqual(trusted.handled);
          expect(untrusted.hooked).toEqual(trusted.hooked);
          // 执行工具的路上没人读信任：读的次数和一个工具都不调的一轮相同
          expect(trusted.reads).toBe(baseline.reads);
          expect(untrusted.reads).toBe(baseline.reads);
        }),
        { numRuns: 40 },
      );
    });
  });
});

// ── s12 起：包 ─────────────────────────────────────────────
forLessonsFrom("packages", (id, load) => {
  const good = () => ({
    manifest: { name: "pkg", tools: ["greet"], commands: ["ver"], resources: ["skills/hello"] },
    contents: { greet: "hello {who}", ver: "pkg 1.0", "skills/hello": "Say hello.\nmore" },
  });

  it("装包：工具进 registry、命令进运行时、资料进 loader，包里的工具按模板干活", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, (_i, n) => (n === 0 ? toolUse("", call("c1", "greet", { who: "pi" })) : text("ok")));
    const { agent } = makeAgent(id, mod, { provider });
    mod.installPackage(agent, mod.loadPackage(good()));
    await mod.runOneTurn(agent, "go");
    expect(inputs[0].tools?.map((t) => t.name)).toEqual(["greet"]);
    expect(inputs[0].systemPrompt).toContain("hello: Say hello.");
    expect(inputs[1].messages.at(-1)?.content).toBe("hello pi");
    expect(agent.runtime?.runCommand("ver")).toBe("pkg 1.0");
  });

  it("包里的资料和别的资料一样受信任约束", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("ok"));
    const { agent } = makeAgent(id, mod, { provider, trust: "untrusted" });
    mod.installPackage(agent, mod.loadPackage(good()));
    await mod.runOneTurn(agent, "go");
    expect(inputs[0].systemPrompt).not.toContain("Say hello.");
  });

  it("和已装的工具或命令重名：整包拒绝，点名冲突，什么都不装", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("ok"));
    for (const clash of ["tool", "command"] as const) {
      const { agent } = makeAgent(id, mod, { provider, tools: clash === "tool" ? [echoTool("greet").tool] : [] });
      if (clash === "command") agent.runtime?.use((api) => api.registerCommand({ name: "ver", run: () => "mine" }));
      const toolsBefore = agent.registry?.getSpecs();
      const promptBefore = mod.buildProviderInput(agent).systemPrompt;
      expect(() => mod.installPackage(agent, mod.loadPackage(good()))).toThrow(clash === "tool" ? /tool "greet" is already registered/ : /command "ver" is already registered/);
      expect(agent.registry?.getSpecs()).toEqual(toolsBefore);
      expect(mod.buildProviderInput(agent).systemPrompt).toBe(promptBefore);
      expect(agent.runtime?.runCommand("ver")).toBe(clash === "command" ? "mine" : 'error: unknown command "ver"');
    }
  });
});
