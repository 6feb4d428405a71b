// 行为测试：几个零件单独拿出来查，不经过整条主线。别的测试大多从 runOneTurn 或 installPackage 进去，只看得到合起来的结果；
// 这里各自守住 README 讲这个零件的那一小节说的事。练习的阶段（tooling/stages.ts）里，只包含这些零件的阶段靠它们变绿。
import { expect, it } from "vitest";
import { echoTool } from "../../tooling/assemble-agent.ts";
import type { Input, LessonModule, Loader, ToolLike } from "../../tooling/lesson.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";

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
