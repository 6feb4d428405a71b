// 坏输入表的底座：按这一课的零件拼 agent 的 harness、一行的形状（Row），和写行用的小函数。
// 表本身按收下不可信输入的零件分在 rows-<零件>.ts 里（provider、tools、hooks、turn、extensions、output、trust、packages），
// tests/bad-input.test.ts 把它们拼成一张表，对每一课跑。
import { expect } from "vitest";
import { echoTool, makeAgent, scriptedProvider } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import { type Hooks, type LessonModule, type Msg, type ProviderLike, type TestAgent, type ToolLike, describeError } from "../../tooling/lesson.ts";
import { type Step, assistant as a, call, plainMessage, text, toolUse, toolResult as r, user as u } from "../../tooling/screenplay.ts";

export type Harness = {
  id: string;
  mod: LessonModule;
  /** 按这一课的零件拼 agent；剧本第 0 次回答固定是 text("ok")（给「先正常聊一轮」用）。 */
  agent(parts?: { responses?: Step[][]; tools?: ToolLike[]; hooks?: Hooks; trust?: "trusted" | "untrusted"; resources?: Resource[] }): Built;
};
export type Resource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
export type Built = { agent: TestAgent; lines: string[]; messages: () => Msg[]; all: () => Msg[]; state: () => State };
/** 一个 agent 此刻的全部状态，用来证明「什么都没丢、什么都没装上一半」。 */
export type State = { messages: Msg[]; tools?: string[]; resources?: { kind: string; name: string; content: string }[]; errors?: string[] };

export type Row = {
  id: string;
  /** 从哪一课起：课号（`s04`），或一个零件（`"oneTurn"`，见 tooling/features.ts）。 */
  since: string;
  /** 不可信的输入是什么。 */
  input: string;
  run(h: Harness): Promise<unknown>;
  /** 预期的结构化结果；可以用 expect.stringMatching 之类的非对称匹配。 */
  expected: unknown;
};


/** 先正常聊一轮（"first" → "ok"），再把坏输入喂进第二轮；返回第二轮的回答和全部消息。 */
export async function secondTurn(h: Harness, hostile: Step[][], parts: { tools?: ToolLike[]; hooks?: Hooks } = {}): Promise<{ reply: Msg; messages: Msg[] }> {
  const b = h.agent({ ...parts, responses: [text("ok"), ...hostile] });
  await h.mod.runOneTurn(b.agent, "first");
  const reply = await h.mod.runOneTurn(b.agent, "second");
  return { reply, messages: b.all() };
}
export const FIRST = [u("first"), a("ok")];

/** 先正常聊一轮，再把 provider 换成 hostile 跑第二轮；返回第二轮的回答和全部消息。 */
export async function secondTurnWith(h: Harness, hostile: ProviderLike): Promise<{ reply: Msg; messages: Msg[] }> {
  const b = h.agent({ responses: [text("ok")] });
  await h.mod.runOneTurn(b.agent, "first");
  b.agent.provider = hostile;
  const reply = await h.mod.runOneTurn(b.agent, "second");
  return { reply, messages: b.all() };
}

/**
 * agent 上的一个零件只在第二轮是坏的（provider、loader、registry）：第二轮以 error 收尾、写进历史，放回去以后第三轮照常。
 */
export function brokenForOneTurn(id: string, since: string, input: string, part: "provider" | "loader" | "registry", broken: unknown, error: string): Row {
  return {
    id,
    since,
    input,
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("back")] });
      await h.mod.runOneTurn(b.agent, "first");
      const real = b.agent[part];
      Object.assign(b.agent, { [part]: broken });
      const reply = await h.mod.runOneTurn(b.agent, "second");
      Object.assign(b.agent, { [part]: real });
      await h.mod.runOneTurn(b.agent, "third");
      return { reply, messages: b.all() };
    },
    expected: { reply: a(error, "error"), messages: [...FIRST, u("second"), a(error, "error"), u("third"), a("back")] },
  };
}

/** 一次工具调用的坏参数：第二轮里模型用 input 调 read(path)，然后说 "done"。 */
export function argsRow(id: string, input: string, args: unknown, result: string, tool: { name: string; params: string[] } = { name: "read", params: ["path"] }): Row {
  return {
    id,
    since: "s04",
    input,
    async run(h) {
      const t = echoTool(tool.name, tool.params);
      const { messages } = await secondTurn(h, [toolUse("", call("c1", tool.name, args)), text("done")], { tools: [t.tool] });
      return { messages, handlerCalls: t.calls.length };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", result), a("done")], handlerCalls: 0 },
  };
}

/** 嵌了 depth 层的合法 JSON 对象。 */
export const nested = (depth: number): unknown => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** 钩子一行：第二轮里模型调 a(text: "x")，钩子是 hooks；预期这次调用的结果和 handler 被调用的记录。 */
export function hookRow([id, input, hooks, result, handlerCalls]: [string, string, Hooks, string, Record<string, string>[]]): Row {
  return {
    id,
    since: "s05",
    input,
    async run(h) {
      const t = echoTool("a");
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "a", { text: "x" })), text("done")], { tools: [t.tool], hooks });
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", result), a("done")], handlerCalls },
  };
}

export const goodPackage = () => ({
  manifest: { name: "pkg", tools: ["greet"], commands: ["ver"], resources: ["skills/hello"] },
  contents: { greet: "hello {who}", ver: "pkg 1.0", "skills/hello": "Say hello.\nmore" },
});
export type Pkg = { manifest: Record<string, unknown>; contents: Record<string, unknown> };
export const packageWithManifest = (patch: Record<string, unknown>): Pkg => ({ ...goodPackage(), manifest: { ...goodPackage().manifest, ...patch } });

/** 装包的前后：先装一个已有的工具、命令、资料，再装坏包；返回错误和装之后的全部状态。 */
export async function installRow(
  h: Harness,
  pkg: unknown,
  before: (b: Built) => void = () => {},
): Promise<{ error: string | undefined; intact: boolean; state: State & { commands: Record<string, string>; prompt: string | undefined } }> {
  const b = h.agent({ tools: [echoTool("taken").tool], resources: [{ kind: "skill", name: "skills/mine", content: "Mine." }] });
  b.agent.runtime?.use(function mine(api) {
    api.registerCommand({ name: "mine", run: () => "mine" });
  });
  await h.mod.runOneTurn(b.agent, "first");
  before(b);
  // 状态 = 消息、工具、资料、扩展错误，外加这些命令各自跑出什么、系统提示长什么样
  const snapshot = () => ({
    ...b.state(),
    commands: Object.fromEntries(["mine", "ver", "fresh"].map((c) => [c, b.agent.runtime?.runCommand(c) ?? ""])),
    prompt: h.mod.buildProviderInput(b.agent).systemPrompt,
  });
  const was = snapshot();
  let error: string | undefined;
  try {
    h.mod.installPackage(b.agent, h.mod.loadPackage(pkg));
  } catch (e) {
    error = describeError(e);
  }
  const now = snapshot();
  return { error, intact: JSON.stringify(now) === JSON.stringify(was), state: now };
}
export const refused = (error: RegExp): unknown => ({ error: expect.stringMatching(error), intact: true, state: expect.anything() });

export const HOSTILE = [
  'line1\nline2\r\nline3 "quoted" \\ backslash',
  "control \u0000\u0001\u0007\u001b[31m\u007f end",
  "separators \u2028 and \u2029 end",
  "lone surrogate \ud800 and emoji 🙂 中文",
  `very long ${"x".repeat(1_000_000)} end`,
];

// ── 跑表 ─────────────────────────────────────────────────
export function harness(id: string, mod: LessonModule): Harness {
  return {
    id,
    mod,
    agent(parts = {}) {
      const { provider } = scriptedProvider(id, (_input, k) => (parts.responses ?? [text("ok")])[k] ?? text("(script ended)"));
      const built = makeAgent(id, mod, { provider, tools: parts.tools, hooks: parts.hooks, trust: parts.trust, resources: parts.resources });
      const all = (): Msg[] => {
        const m = built.agent.state.messages;
        return Array.isArray(m) ? m.map((x) => ({ ...x })) : m.allEntries().map(plainMessage);
      };
      const state = (): State => {
        const s: State = { messages: all() };
        if (built.agent.registry !== undefined) s.tools = built.agent.registry.getSpecs().map((t) => t.name);
        if (built.agent.loader !== undefined) s.resources = built.agent.loader.load(has(id, "trust") ? "trusted" : undefined);
        if (built.agent.runtime !== undefined) s.errors = [...built.agent.runtime.errors];
        return s;
      };
      return { ...built, all, state };
    },
  };
}
