// 行为测试（s04–s05：工具循环（R4 ②、R5）、钩子）：每条写一次，对引入它的那一课及之后的每一课都跑。类型只增不够，后面的课还得「做得到」前面教过的事。
import { expect, it } from "vitest";
import { echoTool, makeAgent, pushMessage, scriptedProvider } from "../../tooling/assemble-agent.ts";
import type { Call } from "../../tooling/lesson.ts";
import { call, text, toolUse } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";

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
