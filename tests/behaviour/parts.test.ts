// 行为测试：几个零件单独拿出来查，不经过整条主线。别的测试大多从 runOneTurn 或 installPackage 进去，只看得到合起来的结果；
// 这里各自守住 README 讲这个零件的那一小节说的事。练习的阶段（tooling/stages.ts）里，只包含这些零件的阶段靠它们变绿。
import { expect, it } from "vitest";
import { echoTool } from "../../tooling/agent.ts";
import type { Event, ExtensionApiLike, Input, LessonModule, Loader, ToolLike } from "../../tooling/lesson.ts";
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

// ── s04 起：ToolRegistry.run ─────────────────────────────
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

// ── s09 起：ExtensionRuntime.use ─────────────────────────
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

type Resource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
/** s12 起才有的两个导出（LessonModule 只列各课共有的）。 */
type PackageParts = LessonModule & {
  templateTool(name: string, template: string, from: string): ToolLike;
  PackageResourceLoader: new (below: Loader, resources: Resource[]) => Loader;
};

// ── s06 起：createTurnSnapshot ───────────────────────────
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

// ── s07 起：SessionTree 挂节点、挪指针 ─────────────────────
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

// ── s12 起：模板工具、叠一层的 loader ──────────────────────
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
