// 行为测试（s09–s12：扩展、运行模式、信任（R6）、包）：每条写一次，对引入它的那一课及之后的每一课都跑。类型只增不够，后面的课还得「做得到」前面教过的事。
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { echoTool, makeAgent, scriptedProvider } from "../../tooling/assemble-agent.ts";
import type { Call, LessonModule } from "../../tooling/lesson.ts";
import { call, text, toolUse } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";

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

  it("这一轮从哪条路结束（回答、问满 maxTurns、开不了头）都恰好发一次 done，而且是最后一个事件", async () => {
    const mod = await load();
    const exits = [
      { name: "回答", script: () => text("answer") },
      { name: "问满 maxTurns", script: () => toolUse("again", call("c1", "a", { text: "x" })) },
      { name: "开不了头", script: () => text("never asked"), brokenLoader: true },
    ];
    for (const exit of exits) {
      const { provider } = scriptedProvider(id, exit.script);
      const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
      if (exit.brokenLoader) agent.loader = { load: () => { throw new Error("disk gone"); } };
      const seen: string[] = [];
      agent.runtime?.use((api) => {
        api.on("message", () => void seen.push("message"));
        api.on("done", () => void seen.push("done"));
      });
      const reply = await mod.runOneTurn(agent, "go");
      expect(seen.filter((e) => e === "done"), `${exit.name}: one done`).toHaveLength(1);
      expect(seen.at(-1), `${exit.name}: done comes last`).toBe("done");
      if (exit.brokenLoader) expect(reply.content, exit.name).toMatch(/^error: could not start the turn: /);
    }
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
    // 中文和 emoji 原样留在行里，人能直接读（s10 README），不是 \uXXXX
    expect(out[0]).toContain("中文 🙂");
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
