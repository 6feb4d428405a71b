// 行为测试：每个零件单独拿出来查，不经过整条主线。别的测试大多从 runOneTurn 或 installPackage 进去，只看得到合起来的结果；
// 这里各自守住 README 讲这个零件的那一小节说的事（措辞、先后、交出去的是不是拷贝、什么情况下跳过）。练习的阶段（tooling/practice/stage-table.ts）
// 里，每个阶段的函数都有自己的测试：只靠这个函数（和前面阶段的），所以它写错了就拦在它自己的阶段，check 的「再读」也指着它的小节。
// 按课排：每一节从引入这个零件的那一课起，对之后每一课都跑。
import { expect, it } from "vitest";
import { echoTool, makeAgent, pushMessage, scriptedProvider } from "../../tooling/assemble-agent.ts";
import type { Call, Event, ExtensionApiLike, Input, LessonModule, Loader, Msg, RuntimeEventLike, ToolLike } from "../../tooling/lesson.ts";
import { call, text } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { watchUnhandled } from "../properties/common.ts";

/** 一条手写的事件流：交出 items，碰到 BROKE 就抛错。 */
const BROKE = Symbol("the stream throws here");
async function* events(...items: unknown[]): AsyncGenerator<Event> {
  for (const item of items) {
    if (item === BROKE) throw new Error("connection reset");
    yield item as Event;
  }
}

/** 等一轮宏任务：没人接的 Promise 失败在这之前报出来。 */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

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
    await settle();
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
    await settle();
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

// ── s08 起：ResourceLoader.load ──────────────────────────
forLessonsFrom("resources", (_id, load) => {
  it("ResourceLoader.load 按给的顺序交出全部资料，每次一份新的副本：调用方改了它，下一次照旧", async () => {
    const { ResourceLoader } = await load();
    const resources = [
      { kind: "agents", name: "AGENTS.md", content: "rules" },
      { kind: "skill", name: "review", content: "# review" },
    ];
    const loader = new ResourceLoader(resources);
    const first = loader.load("trusted");
    expect(first).toEqual(resources);
    first[0].content = "changed";
    first.pop();
    expect(loader.load("trusted")).toEqual([
      { kind: "agents", name: "AGENTS.md", content: "rules" },
      { kind: "skill", name: "review", content: "# review" },
    ]);
  });
});

// ── s09 起：ExtensionRuntime.use、emit ────────────────────
/** use 登记的工具只看 registry（命令要 runCommand、监听要 emit，那是下一阶段的事）。 */
const toolNames = (registry: { getSpecs(): { name: string }[] }): string[] => registry.getSpecs().map((s) => s.name);

forLessonsFrom("extensions", (_id, load) => {
  it("ExtensionRuntime.use 直接调用：扩展登记的工具先记在一边，扩展函数顺利返回才进 registry；中途抛错记一行 error: extension \"<名字>\" failed to load: <原因>，什么都不留下，下一个照装", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    const runtime = new mod.ExtensionRuntime(registry);
    const seenWhileLoading: string[][] = [];
    runtime.use(function good(api) {
      api.registerTool(echoTool("a").tool);
      seenWhileLoading.push(toolNames(registry));
      api.registerTool(echoTool("b").tool);
    });
    expect(seenWhileLoading).toEqual([[]]);
    expect(toolNames(registry)).toEqual(["a", "b"]);
    expect(runtime.errors).toEqual([]);
    expect(() =>
      runtime.use(function bad(api) {
        api.registerTool(echoTool("half").tool);
        throw new Error("config missing");
      }),
    ).not.toThrow();
    runtime.use((api) => api.registerTool(echoTool("c").tool));
    expect(runtime.errors).toEqual(['error: extension "bad" failed to load: config missing']);
    expect(toolNames(registry)).toEqual(["a", "b", "c"]);
    // 直接写在参数里的箭头函数没有名字
    runtime.use(() => {
      throw new Error("x");
    });
    expect(runtime.errors.at(-1)).toBe('error: extension "anonymous" failed to load: x');
  });

  it("ExtensionRuntime.use 的重名：撞上已有的工具、同一个扩展里登记两次，整个扩展不装；装的时候别的扩展先占了名字，提交前再对一遍，也整个不装", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    const runtime = new mod.ExtensionRuntime(registry);
    registry.register(echoTool("t").tool);
    runtime.use(function clash(api) {
      api.registerTool(echoTool("fresh").tool);
      api.registerTool(echoTool("t").tool);
    });
    runtime.use(function twice(api) {
      api.registerTool(echoTool("u").tool);
      api.registerTool(echoTool("u").tool);
    });
    expect(toolNames(registry)).toEqual(["t"]);
    expect(runtime.errors).toEqual(['error: extension "clash" failed to load: tool "t" is already registered', 'error: extension "twice" failed to load: tool "u" is already registered']);
    // outer 装到一半又 use 了 inner，inner 先把 v 装上了：outer 登记的 v 在它自己的账上不撞，提交前再对一遍才发现
    expect(() =>
      runtime.use(function outer(api) {
        runtime.use(function inner(innerApi) {
          innerApi.registerTool(echoTool("v").tool);
        });
        api.registerTool(echoTool("w").tool);
        api.registerTool(echoTool("v").tool);
      }),
    ).not.toThrow();
    expect(toolNames(registry)).toEqual(["t", "v"]);
    expect(runtime.errors.at(-1)).toBe('error: extension "outer" failed to load: tool "v" is already registered');
  });

  it("ExtensionRuntime.use 的关卡：装完以后再登记被清楚地拒绝；交来的不是函数、async 的扩展整个不装，错误说清楚，那个 Promise 的失败被接住", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    const runtime = new mod.ExtensionRuntime(registry);
    let saved: ExtensionApiLike | undefined;
    runtime.use(function late(api) {
      saved = api;
    });
    expect(() => saved?.registerTool(echoTool("later").tool)).toThrow('extension "late" tried to register tool "later" after it finished loading');
    expect(toolNames(registry)).toEqual([]);
    const unhandled = watchUnhandled();
    const rejected = Promise.reject(new Error("import failed"));
    runtime.use(rejected as unknown as Parameters<typeof runtime.use>[0]);
    runtime.use(async function asyncExt(api: ExtensionApiLike) {
      await Promise.resolve();
      api.registerTool(echoTool("never").tool);
      throw new Error("too late");
    } as unknown as Parameters<typeof runtime.use>[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled.stop()).toEqual([]);
    expect(runtime.errors).toEqual([
      "error: extension \"anonymous\" failed to load: an extension must be a function, got a Promise",
      "error: extension \"asyncExt\" failed to load: it returned a Promise; an extension must register everything before it returns",
    ]);
    expect(toolNames(registry)).toEqual([]);
  });
});


forLessonsFrom("extensions", (_id, load) => {
  it("ExtensionRuntime.emit 直接调用：按登记的先后交给订了这种事件的处理函数，每个拿一份自己的拷贝；一个抛错、一个 async 的后来才失败，都记一行 error: handler for \"<类型>\" failed: <原因>，别的照收", async () => {
    const mod = await load();
    const runtime = new mod.ExtensionRuntime(new mod.ToolRegistry());
    const got: string[] = [];
    const content = (e: RuntimeEventLike): string => (e.type === "message" ? e.content : e.type);
    runtime.use((api) => {
      api.on("message", (e) => {
        got.push(`first ${content(e)}`);
        if (e.type === "message") e.content = "tampered";
      });
      api.on("done", () => void got.push("done"));
      api.on("message", () => {
        throw new Error("listener bug");
      });
      api.on("message", (async () => {
        await Promise.resolve();
        throw new Error("late failure");
      }) as unknown as (e: RuntimeEventLike) => void);
      api.on("message", (e) => void got.push(`last ${content(e)}`));
    });
    const unhandled = watchUnhandled();
    const event: RuntimeEventLike = { type: "message", content: "hi" };
    runtime.emit(event);
    expect(event).toEqual({ type: "message", content: "hi" });
    expect(got).toEqual(["first hi", "last hi"]);
    await settle();
    expect(unhandled.stop()).toEqual([]);
    expect(runtime.errors).toEqual(['error: handler for "message" failed: listener bug', 'error: handler for "message" failed: late failure']);
    runtime.emit({ type: "done" });
    expect(got).toEqual(["first hi", "last hi", "done"]);
  });
});

// ── s10 起：PrintMode、JsonMode ─────────────────────────
forLessonsFrom("modes", (_id, load) => {
  const events: RuntimeEventLike[] = [
    { type: "message", content: "我先看看" },
    { type: "message", content: "a:x" },
    { type: "message", content: "答案\n第二行" },
    { type: "done" },
    { type: "done" },
    { type: "message", content: "下一轮" },
    { type: "done" },
  ];
  it("PrintMode.render 直接调用：每个 done 之前的最后一条消息写一行，中间的话和工具结果不写；两个 done 之间没有消息就什么都不写", async () => {
    const mod = await load();
    const out: string[] = [];
    new mod.PrintMode({ log: (line) => void out.push(line) }).render(events);
    expect(out).toEqual(["答案\n第二行", "下一轮"]);
  });

  it("JsonMode.render 直接调用：每个事件一行 JSON，按先后；换行、引号照 JSON 转义，U+2028、U+2029 也转义，中文原样，解析回来和原来一样", async () => {
    const mod = await load();
    const out: string[] = [];
    const tricky: RuntimeEventLike = { type: "message", content: 'say "hi"\u2028\u2029中文' };
    new mod.JsonMode({ log: (line) => void out.push(line) }).render([...events, tricky]);
    expect(out).toHaveLength(events.length + 1);
    expect(out.map((line) => JSON.parse(line) as unknown)).toEqual([...events, tricky]);
    for (const line of out) expect(line).not.toMatch(/[\n\u2028\u2029]/);
    expect(out.at(-1)).toBe('{"type":"message","content":"say \\"hi\\"\\u2028\\u2029中文"}');
  });
});

// ── s11 起：load 看信任 ──────────────────────────────────
forLessonsFrom("trust", (_id, load) => {
  it("ResourceLoader.load 看信任（R6）：不信任的项目一份资料都不交，信任时按顺序全交", async () => {
    const { ResourceLoader } = await load();
    const loader = new ResourceLoader([
      { kind: "agents", name: "AGENTS.md", content: "rules" },
      { kind: "prompt", name: "extra", content: "be brief" },
    ]);
    expect(loader.load("untrusted")).toEqual([]);
    expect(loader.load("trusted").map((r) => r.name)).toEqual(["AGENTS.md", "extra"]);
  });
});

type Resource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
/** s12 起才有的两个导出（LessonModule 只列各课共有的）。 */
type PackageParts = LessonModule & {
  pick(contents: Record<string, string>, names: string[], field: string): Record<string, string>;
  resourceKind(name: string): string | undefined;
  templateTool(name: string, template: string, from: string): ToolLike;
  PackageResourceLoader: new (below: Loader, resources: Resource[]) => Loader;
};

// ── s12 起：pick、resourceKind、模板工具、叠一层的 loader、hasCommand
forLessonsFrom("packages", (_id, load) => {
  it("模板工具：每个 {占位} 是一个参数，调用时按参数填回去；没给的占位填空，只认参数自己的键（constructor 不算给了）", async () => {
    const { templateTool } = (await load()) as PackageParts;
    const tool = templateTool("commit", "{type}: {summary} ({type})", "git-helpers");
    expect(tool.spec.name).toBe("commit");
    expect(Object.keys(tool.spec.input)).toEqual(["type", "summary"]);
    expect(tool.spec.description).toContain("git-helpers");
    expect(tool.handler({ type: "feat", summary: "add store" })).toBe("feat: add store (feat)");
    expect(tool.handler({ type: "fix" })).toBe("fix:  (fix)");
    expect(templateTool("t", "{constructor}|{toString}", "p").handler({})).toBe("|");
  });

  it("叠一层的 loader：下面那层的资料在前，同种又同名的先来的算数，信任照旧由下面那层和 ResourceLoader 过滤", async () => {
    const { ResourceLoader, PackageResourceLoader } = (await load()) as PackageParts;
    const below = new ResourceLoader([
      { kind: "agents", name: "AGENTS.md", content: "project rules" },
      { kind: "skill", name: "review", content: "project review" },
    ]);
    const layered = new PackageResourceLoader(below, [
      { kind: "skill", name: "review", content: "package review" },
      { kind: "skill", name: "commit", content: "package commit" },
      { kind: "prompt", name: "review", content: "package prompt" },
    ]);
    const trusted = layered.load("trusted").map((r) => `${r.kind}:${r.name}=${r.content}`);
    expect(trusted).toEqual(["agents:AGENTS.md=project rules", "skill:review=project review", "skill:commit=package commit", "prompt:review=package prompt"]);
    // 不信任时两层都一份不交：包这一层的资料不能绕过信任
    expect(layered.load("untrusted")).toEqual([]);
    // 每次交出的是拷贝：改了它，下一次照旧
    layered.load("trusted")[2].content = "changed";
    expect(layered.load("trusted")[2].content).toBe("package commit");
  });
});

forLessonsFrom("packages", (_id, load) => {
  it("pick、resourceKind 直接调用：pick 照清单逐个取内容，缺了哪个就点哪个的名，只认 contents 自己的键；resourceKind 只认 AGENTS.md、skills/…、prompts/…", async () => {
    const { pick, resourceKind } = (await load()) as PackageParts;
    expect(pick({ a: "1", b: "2", c: "3" }, ["c", "a"], "manifest.tools")).toEqual({ c: "3", a: "1" });
    expect(() => pick({ a: "1" }, ["a", "b"], "manifest.tools")).toThrow('manifest.tools lists "b", but contents has no entry "b"');
    expect(() => pick({}, ["toString"], "manifest.commands")).toThrow('manifest.commands lists "toString", but contents has no entry "toString"');
    expect(["AGENTS.md", "skills/commit", "prompts/short", "README.md", "skills", "docs/AGENTS.md"].map(resourceKind)).toEqual(["agents", "skill", "prompt", undefined, undefined, undefined]);
  });

  it("ExtensionRuntime.hasCommand 直接调用：装上的命令才有，装失败的扩展登记的命令没有", async () => {
    const mod = await load();
    const runtime = new mod.ExtensionRuntime(new mod.ToolRegistry()) as InstanceType<LessonModule["ExtensionRuntime"]> & { hasCommand(name: string): boolean };
    runtime.use((api) => api.registerCommand({ name: "stats", run: () => "0" }));
    runtime.use((api) => {
      api.registerCommand({ name: "half", run: () => "x" });
      throw new Error("broken");
    });
    expect(["stats", "half", "nope"].map((n) => runtime.hasCommand(n))).toEqual([true, false, false]);
  });
});
