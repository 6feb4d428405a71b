// 行为测试（s06–s08：一轮之内何时看得到新工具（D20）、每轮快照和 model、快照够深、会话树、资料进系统提示）：每条写一次，对引入它的那一课及之后的每一课都跑。类型只增不够，后面的课还得「做得到」前面教过的事。
import { describe, expect, it } from "vitest";
import { echoTool, makeAgent, pushMessage, scriptedProvider } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { LessonModule } from "../../tooling/lesson.ts";
import { call, text, toolUse } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";

// ── 一轮之内新登记的工具何时看得到（D20）：s04–s05 每次请求现取，有了快照以本轮快照为准 ──
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

  it("没有资源：系统提示只是开场白，没有空标题，绝不出现 undefined（s08 README）", async () => {
    const mod = await load();
    const prompt = mod.buildSystemPrompt([]);
    expect(prompt).toBe(mod.SYSTEM_PREAMBLE);
    expect(prompt).not.toContain("undefined");
    // 只有某一种资料时，别的种类也不留空标题
    expect(mod.buildSystemPrompt([{ kind: "prompt", name: "p", content: "tail" }])).toBe(`${mod.SYSTEM_PREAMBLE}\n\ntail`);
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
