// 行为测试：一轮自己的零件（s02–s07：工具表、收集回答、拼输入、钩子、快照、会话树）每个单独拿出来查，不经过整条主线。
// 别的测试大多从 runOneTurn 或 installPackage 进去，只看得到合起来的结果；这里各自守住 README 讲这个零件的那一小节说的事
// （措辞、先后、交出去的是不是拷贝、什么情况下跳过）。练习的阶段（tooling/practice/stage-table.ts）里，每个阶段的函数都有自己的测试：
// 只靠这个函数（和前面阶段的），所以它写错了就拦在它自己的阶段，check 的「再读」也指着它的小节。
// 按课排：每一节从引入这个零件的那一课起，对之后每一课都跑。挂在 Agent 上的零件（s08–s12）在 parts-attached.test.ts。
import { expect, it } from "vitest";
import { echoTool, makeAgent, pushMessage, scriptedProvider } from "../../tooling/assemble-agent.ts";
import type { Call, Event, Input, LessonModule, Msg } from "../../tooling/lesson.ts";
import { call, text } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { waitForUnhandled, watchUnhandled } from "../properties/common.ts";

/** 一条手写的事件流：交出 items，碰到 BROKE 就抛错。 */
const BROKE = Symbol("the stream throws here");
async function* events(...items: unknown[]): AsyncGenerator<Event> {
  for (const item of items) {
    if (item === BROKE) throw new Error("connection reset");
    yield item as Event;
  }
}

// ── s02 起：ToolRegistry 的 register、getSpecs ───────────
forLessonsFrom("tools", (_id, load) => {
  it("ToolRegistry 直接调用：getSpecs 按登记的顺序交出说明；登记存的是一份拷贝，交出去的也是拷贝，谁改了手里那份都改不到 registry；同名的登记报错，原来的不变", async () => {
    const { ToolRegistry } = await load();
    const registry = new ToolRegistry();
    const b = echoTool("b");
    const a = echoTool("a", ["path", "line"]);
    registry.register(b.tool);
    registry.register(a.tool);
    const original = [
      { name: "b", description: "b tool", input: { text: "text" } },
      { name: "a", description: "a tool", input: { path: "path", line: "line" } },
    ];
    expect(registry.getSpecs()).toEqual(original);
    // 登记以后改原来那个对象
    b.tool.spec.name = "renamed";
    b.tool.spec.input.text = "changed";
    // 改交出去的清单
    const specs = registry.getSpecs();
    specs[1].description = "changed";
    specs[1].input.path = "changed";
    specs.reverse().pop();
    expect(registry.getSpecs()).toEqual(original);
    expect(() => registry.register({ spec: { name: "a", description: "another a", input: {} }, handler: () => "" })).toThrow('tool "a" is already registered');
    expect(registry.getSpecs()).toEqual(original);
  });
});

// ── s03 起：collectAssistantMessage ──────────────────────
forLessonsFrom("stream", (_id, load) => {
  it("collectAssistantMessage 直接调用：四种结局各得一条回答——正常收尾按顺序拼文字、stopReason 取结尾事件；中途抛错、没收尾、坏事件都留下已收到的文字，换行接 error: 和原因", async () => {
    const { collectAssistantMessage } = await load();
    const start = { type: "message_start" };
    const delta = (text: string) => ({ type: "text_delta", text });
    expect(await collectAssistantMessage(events(start, delta("一"), delta("二"), { type: "message_end", stopReason: "error" }))).toEqual({
      role: "assistant",
      content: "一二",
      stopReason: "error",
    });
    expect(await collectAssistantMessage(events(start, { type: "message_end", stopReason: "stop" }))).toEqual({ role: "assistant", content: "", stopReason: "stop" });
    expect(await collectAssistantMessage(events(start, delta("半句"), BROKE))).toEqual({ role: "assistant", content: "半句\nerror: connection reset", stopReason: "error" });
    expect(await collectAssistantMessage(events(BROKE))).toEqual({ role: "assistant", content: "error: connection reset", stopReason: "error" });
    expect(await collectAssistantMessage(events(start, delta("x")))).toEqual({ role: "assistant", content: "x\nerror: stream ended without message_end", stopReason: "error" });
    expect(await collectAssistantMessage(events())).toEqual({ role: "assistant", content: "error: stream ended without message_end", stopReason: "error" });
    const bad = await collectAssistantMessage(events(start, delta("前"), { type: "nope" }, { type: "message_end", stopReason: "stop" }));
    expect(bad.stopReason).toBe("error");
    expect(bad.content).toMatch(/^前\nerror: \S/);
  });
});

// ── s04 起：ToolRegistry.run、buildProviderInput、runOneTurn ─
forLessonsFrom("toolLoop", (_id, load) => {
  it("ToolRegistry.run 直接调用（R4 第 2 类）：参数对就交给 handler；没有的工具、参数不对、handler 抛错或回的不是文字，都回一句 error: 开头的结果，从不往外抛", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    const echo = echoTool("echo");
    registry.register(echo.tool);
    registry.register({ spec: { name: "boom", description: "throws", input: {} }, handler: () => { throw new Error("kaput"); } });
    registry.register({ spec: { name: "num", description: "not a string", input: {} }, handler: () => 42 as unknown as string });
    const run = (name: string, input: Record<string, unknown>): string | undefined => registry.run?.({ id: "c1", name, input });
    expect(run("echo", { text: "hi" })).toBe("echo:hi");
    expect(echo.calls).toEqual([{ text: "hi" }]);
    expect(run("nope", {})).toBe('error: unknown tool "nope"');
    expect(run("echo", { text: 42 })).toMatch(/^error: .*"echo".*"text"/);
    expect(run("echo", {})).toMatch(/^error: .*"text"/);
    expect(run("boom", {})).toBe("error: kaput");
    expect(run("num", {})).toMatch(/^error: tool "num" returned 42/);
    expect(echo.calls).toHaveLength(1);
  });
});


forLessonsFrom("toolLoop", (id, load) => {
  it("buildProviderInput 直接调用：历史里的每条消息只留 role 和 content，工具结果多留 toolCallId；工具清单每次现从 registry 取", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("unused"));
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    const history: Msg[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: "look", stopReason: "toolUse" },
      { role: "toolResult", toolCallId: "c1", content: "a:x" },
      { role: "assistant", content: "done", stopReason: "stop" },
    ];
    for (const m of history) pushMessage(agent, m);
    const input = mod.buildProviderInput(agent);
    expect(input.messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: "look" },
      { role: "toolResult", toolCallId: "c1", content: "a:x" },
      { role: "assistant", content: "done" },
    ]);
    expect(input.tools?.map((t) => t.name)).toEqual(["a"]);
    agent.registry?.register(echoTool("b").tool);
    expect(mod.buildProviderInput(agent).tools?.map((t) => t.name)).toEqual(["a", "b"]);
  });

  it("runOneTurn 直接调用：给的不是文字，就回一条 error: user input must be a string, got <类型>，这句话不存、不问模型、不写输出", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("unused"));
    const { agent, lines, messages } = makeAgent(id, mod, { provider });
    for (const [input, type] of [[42, "number"], [undefined, "undefined"], [{ text: "hi" }, "object"]] as const) {
      expect(await mod.runOneTurn(agent, input as unknown as string)).toEqual({ role: "assistant", content: `error: user input must be a string, got ${type}`, stopReason: "error" });
    }
    expect(messages()).toEqual([]);
    expect(inputs).toEqual([]);
    expect(lines).toEqual([]);
  });
});

// ── s05 起：executeToolCall ──────────────────────────────
forLessonsFrom("hooks", (_id, load) => {
  /** registry 里有一个 a 工具（参数 text）；calls 记下 handler 真被调用的参数。 */
  const setup = async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    const a = echoTool("a");
    registry.register(a.tool);
    const exec = (hooks: Parameters<LessonModule["executeToolCall"]>[1], c: Call) => mod.executeToolCall(registry, hooks, c);
    return { exec, calls: a.calls };
  };
  const ask = (id: string): Call => call(id, "a", { text: "x" });

  it("executeToolCall 直接调用：没装钩子就照 run 执行，出来一条带着这次调用 id 的工具结果；钩子改了 call.id，结果照样对回模型发来的那个 id", async () => {
    const { exec, calls } = await setup();
    expect(exec({}, ask("c1"))).toEqual({ role: "toolResult", toolCallId: "c1", content: "a:x" });
    expect(exec({}, call("c2", "nope", {}))).toEqual({ role: "toolResult", toolCallId: "c2", content: 'error: unknown tool "nope"' });
    const renaming = {
      beforeToolCall: (c: Call) => {
        c.id = "hijacked";
        return { type: "allow" as const };
      },
      afterToolCall: (c: Call, result: string) => {
        c.id = "again";
        return result;
      },
    };
    expect(exec(renaming, ask("c3"))).toEqual({ role: "toolResult", toolCallId: "c3", content: "a:x" });
    expect(calls).toEqual([{ text: "x" }, { text: "x" }]);
  });

  it("executeToolCall 的 beforeToolCall：block 回 error: blocked: <原因>，handler 不跑，afterToolCall 也不经过；抛错、答得不成样子（async 回的 Promise、漏了 return、block 没带 reason）都是 error: hook failed: …，调用不执行", async () => {
    const { exec, calls } = await setup();
    const after: string[] = [];
    const afterToolCall = (_c: Call, result: string): string => {
      after.push(result);
      return result.toUpperCase();
    };
    expect(exec({ beforeToolCall: () => ({ type: "block", reason: "no a today" }), afterToolCall }, ask("c1"))).toEqual({ role: "toolResult", toolCallId: "c1", content: "error: blocked: no a today" });
    expect(exec({ beforeToolCall: () => { throw new Error("gate broke"); }, afterToolCall }, ask("c2")).content).toBe("error: hook failed: gate broke");
    const unhandled = watchUnhandled();
    const shape = 'expected {type: "allow"} or {type: "block", reason}';
    const answers: unknown[] = [Promise.resolve({ type: "block", reason: "async" }), Promise.reject(new Error("async gate failed")), undefined, { type: "block" }];
    for (const answer of answers) {
      const result = exec({ beforeToolCall: () => answer as { type: "allow" }, afterToolCall }, ask("c3"));
      expect(result.toolCallId).toBe("c3");
      expect(result.content).toMatch(/^error: hook failed: beforeToolCall returned .+, expected /);
      expect(result.content.endsWith(shape)).toBe(true);
    }
    expect(exec({ beforeToolCall: () => Promise.resolve({ type: "allow" }) as unknown as { type: "allow" } }, ask("c4")).content).toBe(`error: hook failed: beforeToolCall returned a Promise, ${shape}`);
    await waitForUnhandled();
    expect(unhandled.stop()).toEqual([]);
    expect(calls).toEqual([]);
    expect(after).toEqual([]);
  });

  it("executeToolCall 的 afterToolCall：拿到 run 回的文字（错误结果也算），它回的就是最终结果；回的不是文字、抛错都换成 error: hook failed: …，原来的结果不交出去，async 钩子的失败被接住", async () => {
    const { exec } = await setup();
    const seen: string[] = [];
    const wrap = { afterToolCall: (_c: Call, result: string) => (seen.push(result), `[${result}]`) };
    expect(exec(wrap, ask("c1")).content).toBe("[a:x]");
    expect(exec(wrap, call("c2", "nope", {})).content).toBe('[error: unknown tool "nope"]');
    expect(seen).toEqual(["a:x", 'error: unknown tool "nope"']);
    const unhandled = watchUnhandled();
    expect(exec({ afterToolCall: () => 42 as unknown as string }, ask("c3"))).toEqual({ role: "toolResult", toolCallId: "c3", content: "error: hook failed: afterToolCall returned 42, expected a string" });
    expect(exec({ afterToolCall: () => Promise.reject(new Error("late")) as unknown as string }, ask("c4")).content).toBe("error: hook failed: afterToolCall returned a Promise, expected a string");
    expect(exec({ afterToolCall: () => { throw new Error("after exploded"); } }, ask("c5"))).toEqual({ role: "toolResult", toolCallId: "c5", content: "error: hook failed: after exploded" });
    await waitForUnhandled();
    expect(unhandled.stop()).toEqual([]);
  });
});

// ── s06 起：createTurnSnapshot、toProviderMessage ─────────
forLessonsFrom("snapshot", (_id, load) => {
  it("createTurnSnapshot 拍下的是整份副本：之后改原来的历史、消息、工具清单，快照里都还是拍的时候的样子", async () => {
    const { createTurnSnapshot } = await load();
    const input: Input = { systemPrompt: "sys", messages: [{ role: "user", content: "hi" }], tools: [{ name: "read", description: "r", input: { path: "p" } }] };
    const snapshot = createTurnSnapshot(input);
    expect(snapshot).toEqual(input);
    input.messages.push({ role: "user", content: "later" });
    input.messages[0].content = "changed";
    input.tools?.[0] && (input.tools[0].input.path = "changed");
    input.tools?.push({ name: "rm", description: "x", input: {} });
    expect(snapshot.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(snapshot.tools).toEqual([{ name: "read", description: "r", input: { path: "p" } }]);
  });
});


forLessonsFrom("snapshot", (_id, load) => {
  it("toProviderMessage 直接调用：用户消息和助手回答只留 role 和 content（stopReason 不发给 provider），工具结果多留 toolCallId；交出的是新对象", async () => {
    const { toProviderMessage } = (await load()) as LessonModule & { toProviderMessage(m: Msg): Msg };
    const user: Msg = { role: "user", content: "hi" };
    expect(toProviderMessage(user)).toEqual({ role: "user", content: "hi" });
    expect(toProviderMessage(user)).not.toBe(user);
    expect(toProviderMessage({ role: "assistant", content: "ok", stopReason: "toolUse" })).toEqual({ role: "assistant", content: "ok" });
    expect(toProviderMessage({ role: "toolResult", toolCallId: "c1", content: "r" })).toEqual({ role: "toolResult", toolCallId: "c1", content: "r" });
  });
});

// ── s07 起：SessionTree、toAgentMessage ───────────────────
forLessonsFrom("sessionTree", (_id, load) => {
  it("SessionTree：append 挂在指针所在的节点下并把指针挪过去；moveTo 只挪指针，没有的 id 报错且指针不动；allEntries 按挂上的顺序交出每个节点", async () => {
    const { SessionTree } = await load();
    const tree = new SessionTree();
    const a = tree.append({ role: "user", content: "a" });
    const b = tree.append({ role: "assistant", content: "b", stopReason: "stop" });
    expect(a.parentId).toBeNull();
    expect(b.parentId).toBe(a.id);
    tree.moveTo(a.id);
    const c = tree.append({ role: "assistant", content: "c", stopReason: "stop" });
    expect(c.parentId).toBe(a.id);
    expect(() => tree.moveTo("nope")).toThrow(/nope/);
    const d = tree.append({ role: "user", content: "d" });
    expect(d.parentId).toBe(c.id);
    expect(tree.allEntries().map((e) => [e.content, e.parentId])).toEqual([
      ["a", null],
      ["b", a.id],
      ["c", a.id],
      ["d", c.id],
    ]);
    expect(new Set([a.id, b.id, c.id, d.id]).size).toBe(4);
  });
});

/** 一问、一条要工具的回答、一条工具结果，挂成一条链；交回 append 给的三个节点。 */
const toolExchange = (tree: InstanceType<LessonModule["SessionTree"]>) => [
  tree.append({ role: "user", content: "q" }),
  tree.append({ role: "assistant", content: "look", stopReason: "toolUse" }),
  tree.append({ role: "toolResult", toolCallId: "c1", content: "r" }),
];

forLessonsFrom("sessionTree", (_id, load) => {
  it("SessionTree 交出去的都是拷贝：改 append 交回的节点、改 allEntries 交出的数组和节点，树里存的都不变；id 按追加的先后编号", async () => {
    const { SessionTree } = await load();
    const tree = new SessionTree();
    const [a] = toolExchange(tree);
    const stored = [
      { id: "e1", parentId: null, role: "user", content: "q" },
      { id: "e2", parentId: "e1", role: "assistant", content: "look", stopReason: "toolUse" },
      { id: "e3", parentId: "e2", role: "toolResult", content: "r", toolCallId: "c1" },
    ];
    expect(tree.allEntries()).toEqual(stored);
    a.content = "changed";
    a.parentId = "e3";
    const all = tree.allEntries();
    all[1].content = "changed";
    all.pop();
    all.reverse();
    expect(tree.allEntries()).toEqual(stored);
  });

  it("currentPath 直接调用：从指针所在的节点走回根，交出从根到叶子的消息，stopReason、toolCallId 原样还原；moveTo 之后走的是那一支，另一支还在；交出的是新拼的消息", async () => {
    const { SessionTree } = await load();
    const tree = new SessionTree();
    const [root, , leaf] = toolExchange(tree);
    const first = [
      { role: "user", content: "q" },
      { role: "assistant", content: "look", stopReason: "toolUse" },
      { role: "toolResult", toolCallId: "c1", content: "r" },
    ];
    expect(tree.currentPath()).toEqual(first);
    tree.currentPath()[0].content = "changed";
    tree.moveTo(root.id);
    tree.append({ role: "assistant", content: "other", stopReason: "stop" });
    expect(tree.currentPath()).toEqual([{ role: "user", content: "q" }, { role: "assistant", content: "other", stopReason: "stop" }]);
    tree.moveTo(leaf.id);
    expect(tree.currentPath()).toEqual(first);
  });

  it("toAgentMessage 直接调用：按角色把节点还原成消息，id 和 parentId 不带；助手回答带回 stopReason，工具结果带回 toolCallId", async () => {
    const { toAgentMessage } = (await load()) as LessonModule & { toAgentMessage(e: ReturnType<import("../../tooling/lesson.ts").Tree["allEntries"]>[number]): Msg };
    expect(toAgentMessage({ id: "e1", parentId: null, role: "user", content: "q" })).toEqual({ role: "user", content: "q" });
    expect(toAgentMessage({ id: "e2", parentId: "e1", role: "assistant", content: "a", stopReason: "error" })).toEqual({ role: "assistant", content: "a", stopReason: "error" });
    expect(toAgentMessage({ id: "e3", parentId: "e2", role: "toolResult", content: "r", toolCallId: "c9" })).toEqual({ role: "toolResult", toolCallId: "c9", content: "r" });
  });
});
