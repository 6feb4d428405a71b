// 行为测试：挂在 Agent 上的零件（s08–s12：Agent.loader 的资料、Agent.runtime 的扩展、Agent.mode 的运行模式、Agent.trust 的信任、
// Agent.packages 的包）每个单独拿出来查，不经过整条主线；为什么要单独查、和练习阶段的关系见 parts-turn.test.ts 的开头。
// 按课排：每一节从引入这个零件的那一课起，对之后每一课都跑。
import { expect, it } from "vitest";
import { echoTool } from "../../tooling/assemble-agent.ts";
import type { ExtensionApiLike, LessonModule, Loader, RuntimeEventLike, ToolLike } from "../../tooling/lesson.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { waitForUnhandled, watchUnhandled } from "../properties/common.ts";

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
    await waitForUnhandled();
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
    await waitForUnhandled();
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
