// 坏输入：课程接受的每一种不可信输入，一行一个，每行写明预期的结构化结果——一句清楚的错误，而且什么都没丢：
// 之前存下的消息一条不少，失败的安装不留半截（工具、命令、资料、扩展错误记录都和之前一样）。
// 每行对「引入这种输入的那一课」及之后的每一课都跑。
import { describe, expect, it } from "vitest";
import { echoTool, makeAgent, scriptedProvider } from "../tooling/agent.ts";
import { lessonNumber } from "../tooling/course.ts";
import { has } from "../tooling/features.ts";
import type { Hooks, LessonModule, Msg, RuntimeEventLike, TestAgent, ToolLike } from "../tooling/lesson.ts";
import { type Step, assistant as a, call, delta, end, plainMessage, start, text, toolUse, toolResult as r, user as u } from "../tooling/script.ts";
import { forLessonsFrom } from "./support/for-lessons.ts";

type Harness = {
  id: string;
  mod: LessonModule;
  /** 按这一课的零件拼 agent；剧本第 0 次回答固定是 text("ok")（给「先正常聊一轮」用）。 */
  agent(parts?: { responses?: Step[][]; tools?: ToolLike[]; hooks?: Hooks; trust?: "trusted" | "untrusted"; resources?: Resource[] }): Built;
};
type Resource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };
type Built = { agent: TestAgent; lines: string[]; messages: () => Msg[]; all: () => Msg[]; state: () => State };
/** 一个 agent 此刻的全部状态，用来证明「什么都没丢、什么都没装上一半」。 */
type State = { messages: Msg[]; tools?: string[]; resources?: { kind: string; name: string; content: string }[]; errors?: string[] };

type Row = {
  id: string;
  since: string;
  /** 不可信的输入是什么。 */
  input: string;
  run(h: Harness): Promise<unknown>;
  /** 预期的结构化结果；可以用 expect.stringMatching 之类的非对称匹配。 */
  expected: unknown;
};


/** 先正常聊一轮（"first" → "ok"），再把坏输入喂进第二轮；返回第二轮的回答和全部消息。 */
async function secondTurn(h: Harness, hostile: Step[][], parts: { tools?: ToolLike[]; hooks?: Hooks } = {}): Promise<{ reply: Msg; messages: Msg[] }> {
  const b = h.agent({ ...parts, responses: [text("ok"), ...hostile] });
  await h.mod.runOneTurn(b.agent, "first");
  const reply = await h.mod.runOneTurn(b.agent, "second");
  return { reply, messages: b.all() };
}
const FIRST = [u("first"), a("ok")];

/** 一次工具调用的坏参数：第二轮里模型用 input 调 read(path)，然后说 "done"。 */
function argsRow(id: string, input: string, args: unknown, result: string, tool: { name: string; params: string[] } = { name: "read", params: ["path"] }): Row {
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
const nested = (depth: number): unknown => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** 钩子一行：第二轮里模型调 a(text: "x")，钩子是 hooks；预期这次调用的结果和 handler 被调用的记录。 */
function hookRow([id, input, hooks, result, handlerCalls]: [string, string, Hooks, string, Record<string, string>[]]): Row {
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

const goodPackage = () => ({
  manifest: { name: "pkg", tools: ["greet"], commands: ["ver"], resources: ["skills/hello"] },
  contents: { greet: "hello {who}", ver: "pkg 1.0", "skills/hello": "Say hello.\nmore" },
});
type Pkg = { manifest: Record<string, unknown>; contents: Record<string, unknown> };
const withManifest = (patch: Record<string, unknown>): Pkg => ({ ...goodPackage(), manifest: { ...goodPackage().manifest, ...patch } });

/** 装包的前后：先装一个已有的工具、命令、资料，再装坏包；返回错误和装之后的全部状态。 */
async function installRow(
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
    error = e instanceof Error ? e.message : String(e);
  }
  const now = snapshot();
  return { error, intact: JSON.stringify(now) === JSON.stringify(was), state: now };
}
const refused = (error: RegExp): unknown => ({ error: expect.stringMatching(error), intact: true, state: expect.anything() });

const HOSTILE = [
  'line1\nline2\r\nline3 "quoted" \\ backslash',
  "control \u0000\u0001\u0007\u001b[31m\u007f end",
  "separators \u2028 and \u2029 end",
  "lone surrogate \ud800 and emoji 🙂 中文",
  `very long ${"x".repeat(1_000_000)} end`,
];

const ROWS: Row[] = [
  // ── provider 事件（s03 起） ────────────────────────────
  {
    id: "events-out-of-order",
    since: "s03",
    input: "text_delta 早于 message_start；message_start 出现两次；message_end 之后还有文字和第二个 message_end",
    run: (h) => secondTurn(h, [[delta("a"), start, delta("b"), start, end("stop"), delta("never"), end("error")]]),
    expected: { reply: a("ab"), messages: [...FIRST, u("second"), a("ab")] },
  },
  {
    id: "throw-after-message-end",
    since: "s03",
    input: "message_end 之后流才抛错（不该再读）",
    run: (h) => secondTurn(h, [[start, delta("a"), end("stop"), { type: "throw", message: "late" }]]),
    expected: { reply: a("a"), messages: [...FIRST, u("second"), a("a")] },
  },
  {
    id: "empty-delta-then-break",
    since: "s03",
    input: "只收到一段空文字，流就断了（D6：已收到的文字是空的，内容应只有那一行 error）",
    run: (h) => secondTurn(h, [[start, delta(""), { type: "throw", message: "connection reset" }]]),
    expected: { reply: a("error: connection reset", "error"), messages: [...FIRST, u("second"), a("error: connection reset", "error")] },
  },
  {
    id: "stream-throws-synchronously",
    since: "s03",
    input: "provider.stream 还没交出事件流就同步抛错",
    async run(h) {
      const b = h.agent({ responses: [text("ok")] });
      await h.mod.runOneTurn(b.agent, "first");
      b.agent.provider = {
        stream: () => {
          throw new Error("rate limited");
        },
      };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, messages: b.all() };
    },
    expected: { reply: a("error: rate limited", "error"), messages: [...FIRST, u("second"), a("error: rate limited", "error")] },
  },
  {
    id: "tool-calls-around-message-end",
    since: "s04",
    input: "tool_call 早于 message_start；message_end(toolUse) 之后又来一个 tool_call（D19：之后的不执行）",
    async run(h) {
      const t = echoTool("a");
      const { messages } = await secondTurn(
        h,
        [[{ type: "tool_call", call: call("c1", "a", { text: "x" }) }, start, end("toolUse"), { type: "tool_call", call: call("c2", "a", { text: "y" }) }], text("done")],
        { tools: [t.tool] },
      );
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "a:x"), a("done")], handlerCalls: [{ text: "x" }] },
  },

  // ── 工具参数（s04 起，D18） ────────────────────────────
  argsRow("args-missing", "参数缺失", {}, 'error: invalid arguments for tool "read": argument "path" is missing'),
  argsRow("args-extra", "多出参数", { path: "x", extra: "y" }, 'error: invalid arguments for tool "read": unexpected argument "extra"'),
  argsRow("args-missing-and-extra", "缺一个、多一个", { file: "x" }, 'error: invalid arguments for tool "read": argument "path" is missing; unexpected argument "file"'),
  argsRow("args-number", "参数不是字符串：数字", { path: 42 }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-null", "参数不是字符串：null", { path: null }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-array", "参数不是字符串：数组", { path: ["a"] }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-object", "参数不是字符串：对象", { path: { p: "a" } }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-not-object-null", "整个参数是 null", null, 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow("args-not-object-string", "整个参数是字符串", "src/main.ts", 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow("args-not-object-array", "整个参数是数组", ["src/main.ts"], 'error: invalid arguments for tool "read": arguments must be an object'),
  argsRow(
    "args-missing-prototype-name",
    "缺的参数恰好叫 constructor（Object.prototype 上有同名成员）",
    {},
    'error: invalid arguments for tool "make": argument "constructor" is missing',
    { name: "make", params: ["constructor"] },
  ),
  {
    id: "unknown-tool",
    since: "s04",
    input: "调用没登记的工具，名字里带引号（名字原样放进引号里，不转义）",
    async run(h) {
      const { messages } = await secondTurn(h, [toolUse("", call("c1", 'no"pe', {})), text("done")]);
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", 'error: unknown tool "no"pe"'), a("done")] },
  },
  {
    id: "handler-throws-non-error",
    since: "s04",
    input: "handler 抛的不是 Error（一个字符串）",
    async run(h) {
      const boom: ToolLike = {
        spec: { name: "boom", description: "", input: {} },
        handler: () => {
          throw "plain string";
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "boom", {})), text("done")], { tools: [boom] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: plain string"), a("done")] },
  },

  // ── 钩子（s05 起，D16） ────────────────────────────────
  ...(
    [
      ["hook-before-throws", "beforeToolCall 抛错", { beforeToolCall: () => { throw new Error("policy down"); } }, "error: hook failed: policy down", []],
      ["hook-after-throws", "afterToolCall 抛错（handler 已经跑过，结果作废）", { afterToolCall: () => { throw new Error("redactor down"); } }, "error: hook failed: redactor down", [{ text: "x" }]],
      ["hook-throws-non-error", "钩子抛的不是 Error", { beforeToolCall: () => { throw 7; } }, "error: hook failed: 7", []],
    ] as [string, string, Hooks, string, Record<string, string>[]][]
  ).map(hookRow),

  // ── 会话树（s07 起） ───────────────────────────────────
  {
    id: "moveTo-unknown",
    since: "s07",
    input: "moveTo 一个不存在的 id",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still here")] });
      await h.mod.runOneTurn(b.agent, "first");
      const tree = b.agent.state.messages;
      if (Array.isArray(tree)) throw new Error("no tree");
      const before = JSON.stringify([tree.allEntries(), tree.currentPath()]);
      let error: string | undefined;
      try {
        tree.moveTo("e99");
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const unchanged = JSON.stringify([tree.allEntries(), tree.currentPath()]) === before;
      await h.mod.runOneTurn(b.agent, "second");
      return { error, unchanged, path: tree.currentPath() };
    },
    expected: { error: 'moveTo: no entry with id "e99"', unchanged: true, path: [...FIRST, u("second"), a("still here")] },
  },

  // ── 扩展与命令（s09 起，D10） ──────────────────────────
  {
    id: "extension-throws-in-use",
    since: "s09",
    input: "扩展登记了工具、命令、监听之后抛错",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("fine")] });
      await h.mod.runOneTurn(b.agent, "first");
      const heard: string[] = [];
      b.agent.runtime?.use(function bad(api) {
        api.registerTool(echoTool("half").tool);
        api.registerCommand({ name: "half", run: () => "x" });
        api.on("message", (e) => void heard.push(e.type));
        throw new Error("config missing");
      });
      await h.mod.runOneTurn(b.agent, "second");
      return { state: b.state(), half: b.agent.runtime?.runCommand("half"), heard };
    },
    expected: {
      state: { messages: [...FIRST, u("second"), a("fine")], tools: [], resources: [], errors: ['error: extension "bad" failed to load: config missing'] },
      half: 'error: unknown command "half"',
      heard: [],
    },
  },
  {
    id: "extension-tool-clash",
    since: "s09",
    input: "扩展登记的工具和已有工具重名（同一个扩展里还登记了命令）",
    async run(h) {
      const b = h.agent({ tools: [echoTool("read").tool] });
      b.agent.runtime?.use(function clash(api) {
        api.registerCommand({ name: "cmd", run: () => "x" });
        api.registerTool(echoTool("read").tool);
      });
      return { state: b.state(), cmd: b.agent.runtime?.runCommand("cmd") };
    },
    expected: {
      state: { messages: [], tools: ["read"], resources: [], errors: ['error: extension "clash" failed to load: tool "read" is already registered'] },
      cmd: 'error: unknown command "cmd"',
    },
  },
  {
    id: "extension-duplicate-command",
    since: "s09",
    input: "同一个扩展把同名命令登记两次",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use(function twice(api) {
        api.registerCommand({ name: "go", run: () => "1" });
        api.registerCommand({ name: "go", run: () => "2" });
      });
      return { errors: b.state().errors, go: b.agent.runtime?.runCommand("go") };
    },
    expected: { errors: ['error: extension "twice" failed to load: command "go" is already registered'], go: 'error: unknown command "go"' },
  },
  {
    id: "listener-throws",
    since: "s09",
    input: "事件处理函数抛错（抛的不是 Error）",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("fine")] });
      const got: string[] = [];
      b.agent.runtime?.use((api) =>
        api.on("message", () => {
          throw "oops";
        }),
      );
      b.agent.runtime?.use((api) => api.on("done", (e: RuntimeEventLike) => void got.push(e.type)));
      await h.mod.runOneTurn(b.agent, "first");
      await h.mod.runOneTurn(b.agent, "second");
      return { state: b.state(), got };
    },
    expected: {
      state: { messages: [...FIRST, u("second"), a("fine")], tools: [], resources: [], errors: ['error: handler for "message" failed: oops', 'error: handler for "message" failed: oops'] },
      got: ["done", "done"],
    },
  },
  {
    id: "unknown-command",
    since: "s09",
    input: "跑一个没有的命令，名字里带空格和引号（名字原样放进引号里，不转义）",
    async run(h) {
      const b = h.agent();
      return { result: b.agent.runtime?.runCommand('de"ploy now'), errors: b.state().errors };
    },
    expected: { result: 'error: unknown command "de"ploy now"', errors: [] },
  },
  {
    id: "command-throws",
    since: "s09",
    input: "命令自己抛错",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use((api) =>
        api.registerCommand({
          name: "crash",
          run: () => {
            throw new Error("nope");
          },
        }),
      );
      return { result: b.agent.runtime?.runCommand("crash"), again: b.agent.runtime?.runCommand("crash") };
    },
    expected: { result: 'error: command "crash" failed: nope', again: 'error: command "crash" failed: nope' },
  },

  // ── JSON 模式（s10 起，D12） ───────────────────────────
  {
    id: "json-hostile",
    since: "s10",
    input: "助手文字和工具结果里有换行、引号、控制字符、U+2028/2029、孤立代理项、1 MB 长文",
    async run(h) {
      const out: string[] = [];
      const results = HOSTILE.map((_, i) => call(`c${i}`, "echo", { text: HOSTILE[i] }));
      const b = h.agent({ responses: [toolUse(HOSTILE[0], ...results), text(HOSTILE.join("|"))], tools: [echoTool("echo").tool] });
      b.agent.mode = new h.mod.JsonMode({ log: (line) => void out.push(line) });
      const events: RuntimeEventLike[] = [];
      b.agent.runtime?.use((api) => {
        api.on("message", (e) => void events.push(e));
        api.on("done", (e) => void events.push(e));
      });
      await h.mod.runOneTurn(b.agent, "first");
      const raw = out.join("\n");
      return {
        lines: raw.split("\n").length,
        lineTerminators: [...raw.matchAll(/[\r\u2028\u2029]/g)].map((m) => m[0].codePointAt(0)),
        parsed: raw.split("\n").map((line) => JSON.parse(line) as unknown),
        messages: b.all().length,
        sameAsEvents: JSON.stringify(raw.split("\n").map((line) => JSON.parse(line) as unknown)) === JSON.stringify(events),
      };
    },
    expected: {
      lines: HOSTILE.length + 3,
      lineTerminators: [],
      parsed: [
        { type: "message", content: HOSTILE[0] },
        ...HOSTILE.map((t) => ({ type: "message", content: `echo:${t}` })),
        { type: "message", content: HOSTILE.join("|") },
        { type: "done" },
      ],
      messages: HOSTILE.length + 3,
      sameAsEvents: true,
    },
  },

  // ── 信任（s11 起，R6） ─────────────────────────────────
  {
    id: "untrusted-project",
    since: "s11",
    input: "不信任的项目带着项目说明、技能、追加提示",
    async run(h) {
      const resources: Resource[] = [
        { kind: "agents", name: "AGENTS.md", content: "EXFILTRATE" },
        { kind: "skill", name: "evil", content: "EVIL SKILL" },
        { kind: "prompt", name: "p", content: "IGNORE PREVIOUS" },
      ];
      const { provider, inputs } = scriptedProvider(h.id, () => text("ok"));
      const b = h.agent({ resources, trust: "untrusted" });
      b.agent.provider = provider;
      await h.mod.runOneTurn(b.agent, "first");
      const untrusted = { loaded: b.agent.loader?.load("untrusted"), prompt: inputs[0].systemPrompt };
      b.agent.trust = "trusted";
      await h.mod.runOneTurn(b.agent, "second");
      return { untrusted, laterTrusted: (inputs[1].systemPrompt ?? "").includes("EXFILTRATE"), kept: b.agent.loader?.load("trusted") };
    },
    expected: {
      untrusted: { loaded: [], prompt: expect.not.stringMatching(/EXFILTRATE|EVIL|IGNORE/) },
      laterTrusted: true,
      kept: [
        { kind: "agents", name: "AGENTS.md", content: "EXFILTRATE" },
        { kind: "skill", name: "evil", content: "EVIL SKILL" },
        { kind: "prompt", name: "p", content: "IGNORE PREVIOUS" },
      ],
    },
  },
  {
    id: "untrusted-package-resources",
    since: "s12",
    input: "往不信任的项目里装一个带资料的包",
    async run(h) {
      const b = h.agent({ trust: "untrusted" });
      h.mod.installPackage(b.agent, h.mod.loadPackage(goodPackage()));
      const hidden = h.mod.buildProviderInput(b.agent).systemPrompt === h.mod.SYSTEM_PREAMBLE;
      b.agent.trust = "trusted";
      return { hidden, shownWhenTrusted: (h.mod.buildProviderInput(b.agent).systemPrompt ?? "").includes("Say hello.") };
    },
    expected: { hidden: true, shownWhenTrusted: true },
  },

  // ── 包清单（s12 起，D13）：每个字段 ─────────────────────
  ...(
    [
      ["package-null", "包是 null", null, /^invalid package: package: /],
      ["package-string", "包是字符串", "pkg", /^invalid package: package: /],
      ["manifest-missing", "没有 manifest", { contents: goodPackage().contents }, /^invalid package: manifest: /],
      ["manifest-name-missing", "manifest.name 缺失", withManifest({ name: undefined }), /^invalid package: manifest\.name: /],
      ["manifest-name-empty", "manifest.name 是空串", withManifest({ name: "" }), /^invalid package: manifest\.name: /],
      ["manifest-name-number", "manifest.name 不是字符串", withManifest({ name: 42 }), /^invalid package: manifest\.name: /],
      ["manifest-tools-missing", "manifest.tools 缺失", withManifest({ tools: undefined }), /^invalid package: manifest\.tools: /],
      ["manifest-tools-string", "manifest.tools 不是数组", withManifest({ tools: "greet" }), /^invalid package: manifest\.tools: /],
      ["manifest-tools-number", "manifest.tools 里有非字符串", withManifest({ tools: [42] }), /^invalid package: manifest\.tools\.0: /],
      ["manifest-commands-missing", "manifest.commands 缺失", withManifest({ commands: undefined }), /^invalid package: manifest\.commands: /],
      ["manifest-commands-object", "manifest.commands 不是数组", withManifest({ commands: { ver: "x" } }), /^invalid package: manifest\.commands: /],
      ["manifest-commands-number", "manifest.commands 里有非字符串", withManifest({ commands: [null] }), /^invalid package: manifest\.commands\.0: /],
      ["manifest-resources-missing", "manifest.resources 缺失", withManifest({ resources: undefined }), /^invalid package: manifest\.resources: /],
      ["manifest-resources-string", "manifest.resources 不是数组", withManifest({ resources: "skills/hello" }), /^invalid package: manifest\.resources: /],
      ["manifest-resources-number", "manifest.resources 里有非字符串", withManifest({ resources: [1] }), /^invalid package: manifest\.resources\.0: /],
      ["contents-missing", "没有 contents", { manifest: goodPackage().manifest }, /^invalid package: contents: /],
      ["contents-not-record", "contents 是数组", { ...goodPackage(), contents: ["hello {who}"] }, /^invalid package: contents: /],
      ["contents-value-number", "contents 里的值不是字符串", { ...goodPackage(), contents: { ...goodPackage().contents, greet: 42 } }, /^invalid package: contents\.greet: /],
      ["tools-entry-missing", "manifest.tools 列了 contents 里没有的名字", withManifest({ tools: ["greet", "ghost"] }), /^package "pkg": manifest\.tools lists "ghost", but contents has no entry "ghost"$/],
      ["commands-entry-missing", "manifest.commands 列了 contents 里没有的名字", withManifest({ commands: ["ghost"] }), /^package "pkg": manifest\.commands lists "ghost"/],
      ["resources-entry-missing", "manifest.resources 列了 contents 里没有的名字", withManifest({ resources: ["skills/ghost"] }), /^package "pkg": manifest\.resources lists "skills\/ghost"/],
      ["resource-unknown-kind", "资料名既不是 AGENTS.md 也不在 skills/、prompts/ 下", { ...withManifest({ resources: ["notes.txt"] }), contents: { ...goodPackage().contents, "notes.txt": "x" } }, /^package "pkg": manifest\.resources: "notes\.txt" is not AGENTS\.md/],
    ] as [string, string, unknown, RegExp][]
  ).map(
    ([id, input, pkg, error]): Row => ({ id, since: "s12", input, run: (h) => installRow(h, pkg), expected: refused(error) }),
  ),

  // ── 重名：工具、命令、包（s12 起，D13「任何冲突整包拒绝」） ──────
  {
    id: "clash-tool",
    since: "s12",
    input: "包里的工具和已有工具重名",
    run: (h) => installRow(h, { manifest: { name: "p", tools: ["taken"], commands: ["fresh"], resources: ["skills/new"] }, contents: { taken: "x", fresh: "y", "skills/new": "New." } }),
    expected: refused(/^package "p": tool "taken" is already registered; nothing was installed$/),
  },
  {
    id: "clash-command",
    since: "s12",
    input: "包里的命令和已有命令重名",
    run: (h) => installRow(h, { manifest: { name: "p", tools: ["fresh"], commands: ["mine"], resources: ["skills/new"] }, contents: { fresh: "x", mine: "y", "skills/new": "New." } }),
    expected: refused(/^package "p": command "mine" is already registered; nothing was installed$/),
  },
  {
    id: "clash-package-name",
    since: "s12",
    input: "同名的包装第二次（第二次只带资料，工具/命令查重拦不住它）",
    run: (h) =>
      installRow(h, { manifest: { name: "pkg", tools: [], commands: [], resources: ["skills/again"] }, contents: { "skills/again": "Again." } }, (b) =>
        h.mod.installPackage(b.agent, h.mod.loadPackage(goodPackage())),
      ),
    expected: refused(/"pkg".*already installed|already installed.*"pkg"/),
  },
  {
    id: "clash-resource-name",
    since: "s12",
    input: "包里的技能和项目自己的技能同名（D40：包照样装上；加载时先来的算数，项目自己的那份进系统提示，不信任时两份都不进）",
    async run(h) {
      const b = h.agent({ resources: [{ kind: "skill", name: "mine", content: "Mine." }], trust: "trusted" });
      const pkg = { manifest: { name: "p", tools: [], commands: [], resources: ["skills/mine", "skills/theirs"] }, contents: { "skills/mine": "Theirs.", "skills/theirs": "Only theirs." } };
      h.mod.installPackage(b.agent, h.mod.loadPackage(pkg));
      const skills = (h.mod.buildProviderInput(b.agent).systemPrompt ?? "").split("\n").filter((line) => line.startsWith("- "));
      b.agent.trust = "untrusted";
      return { skills, untrustedPrompt: h.mod.buildProviderInput(b.agent).systemPrompt === h.mod.SYSTEM_PREAMBLE };
    },
    expected: { skills: ["- mine: Mine.", "- theirs: Only theirs."], untrustedPrompt: true },
  },

  // ══ issue 13：每道边界（第 1–11 类），一类至少一行 ══════════════
  // ── 第 1 类：抛出来的东西连文字都转不出来（s01 起） ──────────
  {
    id: "provider-throws-null-prototype",
    since: "s01",
    input: "provider 抛一个没有原型的对象（String() 会再抛一次）",
    run: async (h) => {
      const b = h.agent({ responses: [text("ok")] });
      await h.mod.runOneTurn(b.agent, "first");
      const nothing = (): never => {
        throw Object.create(null);
      };
      b.agent.provider = !has(h.id, "stream") ? { complete: async () => nothing() } : { stream: nothing };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, messages: b.all() };
    },
    expected: { reply: a("error: unprintable object", "error"), messages: [...FIRST, u("second"), a("error: unprintable object", "error")] },
  },
  {
    id: "handler-throws-revoked-proxy",
    since: "s04",
    input: "handler 抛一个撤销了的 Proxy（s05 起也不会被错标成 hook failed）",
    async run(h) {
      const boom: ToolLike = {
        spec: { name: "boom", description: "", input: {} },
        handler: () => {
          const { proxy, revoke } = Proxy.revocable({}, {});
          revoke();
          throw proxy;
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "boom", {})), text("done")], { tools: [boom] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: unprintable object"), a("done")] },
  },
  {
    id: "hook-throws-null-prototype",
    since: "s05",
    input: "beforeToolCall 抛一个没有原型的对象",
    async run(h) {
      const t = echoTool("a");
      const hooks: Hooks = {
        beforeToolCall: () => {
          throw Object.create(null);
        },
      };
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "a", { text: "x" })), text("done")], { tools: [t.tool], hooks });
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: hook failed: unprintable object"), a("done")], handlerCalls: [] },
  },

  // ── 第 2 类：provider 的事件不可信（s03 起，D26） ───────────
  ...(
    [
      ["stop-reason-outside-the-set", "message_end 的 stopReason 不在 StopReason 里（\"length\"）", [start, delta("ab"), end("length")], 'ab\nerror: invalid event from provider: {"type":"message_end","stopReason":"length"}'],
      ["message-end-without-stop-reason", "message_end 没带 stopReason", [start, delta("ab"), { type: "message_end" }], 'ab\nerror: invalid event from provider: {"type":"message_end"}'],
      ["event-null", "事件是 null", [start, null], "error: invalid event from provider: null"],
      ["event-string", "事件是一个字符串", [start, "message_end"], 'error: invalid event from provider: "message_end"'],
      ["text-delta-not-string", "text_delta 的 text 不是字符串", [start, { type: "text_delta", text: 42 }], 'error: invalid event from provider: {"type":"text_delta","text":42}'],
      ["event-unknown-type", "不认识的事件类型", [start, { type: "thinking_delta", text: "hmm" }], 'error: invalid event from provider: {"type":"thinking_delta","text":"hmm"}'],
    ] as [string, string, unknown[], string][]
  ).map(
    ([id, input, events, content]): Row => ({
      id,
      since: "s03",
      input,
      run: (h) => secondTurn(h, [events as Step[]]),
      expected: { reply: a(content, "error"), messages: [...FIRST, u("second"), a(content, "error")] },
    }),
  ),
  {
    id: "tool-call-without-call",
    since: "s04",
    input: "tool_call 事件没带 call（回答以出错收尾，它前面合法的调用也不执行）",
    async run(h) {
      const t = echoTool("a");
      const { messages } = await secondTurn(h, [[start, { type: "tool_call", call: call("c1", "a", { text: "x" }) }, { type: "tool_call" } as unknown as Step, end("toolUse")]], { tools: [t.tool] });
      return { messages, handlerCalls: t.calls };
    },
    expected: { messages: [...FIRST, u("second"), a('error: invalid event from provider: {"type":"tool_call"}', "error")], handlerCalls: [] },
  },
  {
    id: "provider-without-stream",
    since: "s03",
    input: "provider 对象上没有 stream",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("back")] });
      await h.mod.runOneTurn(b.agent, "first");
      const real = b.agent.provider;
      b.agent.provider = {};
      const reply = await h.mod.runOneTurn(b.agent, "second");
      b.agent.provider = real;
      await h.mod.runOneTurn(b.agent, "third");
      return { reply, messages: b.all() };
    },
    expected: {
      reply: a("error: provider.stream is not a function", "error"),
      messages: [...FIRST, u("second"), a("error: provider.stream is not a function", "error"), u("third"), a("back")],
    },
  },

  // ── 第 3 类：工具契约在运行时也算数（s04 起，D27） ───────────
  ...(
    [
      ["handler-returns-promise", "handler 回一个 Promise（照着 Pi 写成 async 的工具）", () => Promise.resolve("late"), 'error: tool "a" returned a Promise, expected a string'],
      ["handler-returns-rejecting-promise", "handler 回一个会 reject 的 Promise", () => Promise.reject(new Error("async failure")), 'error: tool "a" returned a Promise, expected a string'],
      ["handler-returns-number", "handler 回一个数字", () => 42, 'error: tool "a" returned 42, expected a string'],
      ["handler-returns-undefined", "handler 什么都不回", () => undefined, 'error: tool "a" returned undefined, expected a string'],
      ["handler-returns-object", "handler 回一个对象", () => ({ lines: 3 }), 'error: tool "a" returned {"lines":3}, expected a string'],
    ] as [string, string, () => unknown, string][]
  ).map(
    ([id, input, result, content]): Row => ({
      id,
      since: "s04",
      input,
      async run(h) {
        const tool: ToolLike = { spec: { name: "a", description: "", input: {} }, handler: () => result() as string };
        const b = h.agent({ tools: [tool], responses: [text("ok"), toolUse("", call("c1", "a", {})), text("done"), text("later")] });
        await h.mod.runOneTurn(b.agent, "first");
        await h.mod.runOneTurn(b.agent, "second");
        await h.mod.runOneTurn(b.agent, "third");
        await new Promise((resolve) => setImmediate(resolve));
        return { messages: b.all() };
      },
      // 第三轮照常：结果没有毒化历史（s06 起每轮都要给历史拍快照）
      expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", content), a("done"), u("third"), a("later")] },
    }),
  ),
  argsRow("args-nested-deep", "参数嵌了 10,000 层（合法的 JSON）", { path: nested(10_000) }, 'error: invalid arguments for tool "read": argument "path" must be a string'),
  argsRow("args-bigint", "参数里有 BigInt（不是 JSON，日志行也写得出来）", { path: 10n }, 'error: invalid arguments for tool "read": argument "path" must be a string'),

  // ── 第 4 类：钩子出了岔子就按拦下处理（s05 起，D28） ─────────
  ...(
    [
      ["hook-returns-promise-of-block", "beforeToolCall 回一个 Promise（Pi 的钩子是 async 的），它 resolve 成 block", { beforeToolCall: () => Promise.resolve({ type: "block", reason: "no" }) }, 'error: hook failed: beforeToolCall returned a Promise, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-returns-undefined", "beforeToolCall 什么都不回（Pi 里这算放行）", { beforeToolCall: () => undefined }, 'error: hook failed: beforeToolCall returned undefined, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-block-without-reason", "beforeToolCall 回 block 却没有 reason", { beforeToolCall: () => ({ type: "block" }) }, 'error: hook failed: beforeToolCall returned {"type":"block"}, expected {type: "allow"} or {type: "block", reason}', []],
      ["hook-pi-shaped-block", "beforeToolCall 回 Pi 写法的 {block: true, reason}", { beforeToolCall: () => ({ block: true, reason: "no" }) }, 'error: hook failed: beforeToolCall returned {"block":true,"reason":"no"}, expected {type: "allow"} or {type: "block", reason}', []],
      ["after-hook-returns-undefined", "afterToolCall 什么都不回（handler 已经跑过，结果作废）", { afterToolCall: () => undefined }, "error: hook failed: afterToolCall returned undefined, expected a string", [{ text: "x" }]],
      ["after-hook-returns-promise", "afterToolCall 回一个 Promise", { afterToolCall: () => Promise.resolve("redacted") }, "error: hook failed: afterToolCall returned a Promise, expected a string", [{ text: "x" }]],
    ] as unknown as [string, string, Hooks, string, Record<string, string>[]][]
  ).map(hookRow),
  hookRow([
    "hook-rewrites-call-id",
    "beforeToolCall 把 call.id 改掉再放行（结果仍回答模型给的 id）",
    {
      beforeToolCall: (c) => {
        c.id = "forged";
        return { type: "allow" };
      },
    },
    "a:x",
    [{ text: "x" }],
  ]),

  // ── 第 5 类：provider 改了手上的输入（s02 起） ─────────────────
  {
    id: "provider-mutates-its-input",
    since: "s02",
    input: "provider 往收到的 messages 里塞消息、改工具说明、加参数",
    async run(h) {
      const seen: unknown[] = [];
      const answer = (input: { messages: Msg[]; tools?: ToolLike["spec"][] }): void => {
        seen.push(structuredClone(input));
        input.messages.push(u("INJECTED"));
        if (input.tools?.[0] !== undefined) Object.assign(input.tools[0], { description: "EDITED" }).input.extra = "x";
      };
      const b = h.agent({ tools: [echoTool("a").tool] });
      b.agent.provider =
        !has(h.id, "stream")
          ? { complete: async (input) => (answer(input), "ok") }
          : {
              async *stream(input) {
                answer(input);
                yield* text("ok") as never[];
              },
            };
      await h.mod.runOneTurn(b.agent, "first");
      await h.mod.runOneTurn(b.agent, "second");
      return { seen, specs: b.agent.registry?.getSpecs(), messages: b.all() };
    },
    expected: {
      seen: [
        { messages: [u("first")], tools: [{ name: "a", description: "a tool", input: { text: "text" } }] },
        { messages: [u("first"), { role: "assistant", content: "ok" }, u("second")], tools: [{ name: "a", description: "a tool", input: { text: "text" } }] },
      ].map((x) => expect.objectContaining(x)),
      specs: [{ name: "a", description: "a tool", input: { text: "text" } }],
      messages: [...FIRST, u("second"), a("ok")],
    },
  },

  // ── 第 6 类：按名字查东西摸不到原型（s04 起的工具，s06 起的模型） ──
  {
    id: "model-named-constructor",
    since: "s06",
    input: 'state.model 是 "constructor"（Object.prototype 上有同名成员）',
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("from the default provider")] });
      await h.mod.runOneTurn(b.agent, "first");
      b.agent.providers = {};
      b.agent.state.model = "constructor";
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply };
    },
    expected: { reply: a("from the default provider") },
  },
  {
    id: "demo-read-prototype-path",
    since: "s04",
    input: '演示的 read 工具读路径 "constructor"',
    async run(h) {
      const read = h.mod.createDemoTools().find((t) => t.spec.name === "read");
      const { messages } = await secondTurn(h, [toolUse("", call("c1", "read", { path: "constructor" })), text("done")], { tools: read === undefined ? [] : [read] });
      return { messages };
    },
    expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", "error: no such file: constructor"), a("done")] },
  },

  // ── 第 7 类：一轮前后调用的东西也在 R4 里（D29） ──────────────
  {
    id: "loader-throws",
    since: "s08",
    input: "loader.load() 抛错（读项目资料失败）",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("back")] });
      await h.mod.runOneTurn(b.agent, "first");
      const real = b.agent.loader;
      b.agent.loader = {
        load: () => {
          throw new Error("disk on fire");
        },
      };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      b.agent.loader = real;
      await h.mod.runOneTurn(b.agent, "third");
      return { reply, messages: b.all() };
    },
    expected: {
      reply: a("error: could not start the turn: disk on fire", "error"),
      messages: [...FIRST, u("second"), a("error: could not start the turn: disk on fire", "error"), u("third"), a("back")],
    },
  },
  {
    id: "output-throws",
    since: "s01",
    input: "Output.log 抛错（终端关了）",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still stored")] });
      await h.mod.runOneTurn(b.agent, "first");
      const broken = {
        log: () => {
          throw new Error("EPIPE");
        },
      };
      b.agent.output = broken;
      if (has(h.id, "modes")) b.agent.mode = new h.mod.PrintMode(broken);
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, messages: b.all() };
    },
    expected: { reply: a("still stored"), messages: [...FIRST, u("second"), a("still stored")] },
  },
  {
    id: "render-throws",
    since: "s10",
    input: "运行模式的 render 抛错",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still stored")] });
      await h.mod.runOneTurn(b.agent, "first");
      b.agent.mode = {
        render: () => {
          throw new Error("screen gone");
        },
      };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, state: b.state() };
    },
    expected: {
      reply: a("still stored"),
      state: { messages: [...FIRST, u("second"), a("still stored")], tools: [], resources: [], errors: ["error: mode failed to render: screen gone"] },
    },
  },
  {
    id: "listener-rejects",
    since: "s09",
    input: "async 的事件处理函数 reject",
    async run(h) {
      const b = h.agent({ responses: [text("ok")] });
      b.agent.runtime?.use((api) =>
        api.on("done", async () => {
          throw new Error("async boom");
        }),
      );
      await h.mod.runOneTurn(b.agent, "first");
      await new Promise((resolve) => setImmediate(resolve));
      return { state: b.state() };
    },
    expected: { state: { messages: FIRST, tools: [], resources: [], errors: ['error: handler for "done" failed: async boom'] } },
  },

  // ── 第 8 类：扩展从不悄悄丢活（s09 起，D30） ─────────────────
  {
    id: "extension-async",
    since: "s09",
    input: "async 扩展：await 前登记一个命令，await 后登记一个工具",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use(async function later(api) {
        api.registerCommand({ name: "early", run: () => "x" });
        await null;
        api.registerTool(echoTool("late").tool);
      });
      await new Promise((resolve) => setImmediate(resolve));
      return { state: b.state(), early: b.agent.runtime?.runCommand("early") };
    },
    expected: {
      state: {
        messages: [],
        tools: [],
        resources: [],
        errors: ['error: extension "later" failed to load: it returned a Promise; an extension must register everything before it returns'],
      },
      early: 'error: unknown command "early"',
    },
  },
  ...(
    [
      ["extension-undefined", "use(undefined)", undefined, 'error: extension "anonymous" failed to load: an extension must be a function, got undefined'],
      ["extension-object", "use 一个对象", { name: "not-a-function" }, 'error: extension "anonymous" failed to load: an extension must be a function, got {"name":"not-a-function"}'],
      ["extension-promise", "use 一个 Promise（比如 import() 的结果）", Promise.resolve({ default: () => {} }), 'error: extension "anonymous" failed to load: an extension must be a function, got a Promise'],
    ] as [string, string, unknown, string][]
  ).map(
    ([id, input, ext, error]): Row => ({
      id,
      since: "s09",
      input,
      async run(h) {
        const b = h.agent();
        b.agent.runtime?.use(ext as never);
        return { errors: b.state().errors };
      },
      expected: { errors: [error] },
    }),
  ),
  {
    id: "extension-nested-clash",
    since: "s09",
    input: "扩展里又 use 了一个扩展，里面那个先占了外面这个要登记的工具名",
    async run(h) {
      const b = h.agent();
      const runtime = b.agent.runtime;
      runtime?.use(function outer(api) {
        api.registerCommand({ name: "outer-cmd", run: () => "x" });
        api.registerTool(echoTool("shared").tool);
        runtime.use(function inner(api2) {
          api2.registerTool(echoTool("shared").tool);
        });
      });
      return { state: b.state(), outer: runtime?.runCommand("outer-cmd") };
    },
    expected: {
      state: { messages: [], tools: ["shared"], resources: [], errors: ['error: extension "outer" failed to load: tool "shared" is already registered'] },
      outer: 'error: unknown command "outer-cmd"',
    },
  },

  // ── 第 9 类：一次一轮（s01 起，D33） ─────────────────────────
  {
    id: "two-turns-at-once",
    since: "s01",
    input: "同一个 agent 上不等第一轮跑完就发起第二轮",
    async run(h) {
      const b = h.agent({ responses: [text("answer A"), text("answer C")] });
      const [first, second] = await Promise.all([h.mod.runOneTurn(b.agent, "A"), h.mod.runOneTurn(b.agent, "B")]);
      await h.mod.runOneTurn(b.agent, "C");
      return { first, second, messages: b.all() };
    },
    expected: {
      first: a("answer A"),
      second: a("error: agent is already processing a prompt", "error"),
      messages: [u("A"), a("answer A"), u("C"), a("answer C")],
    },
  },

  // ── 第 10 类：监听改不了打印的东西（s10 起，D34） ─────────────
  {
    id: "listener-rewrites-event",
    since: "s10",
    input: "监听把收到的事件内容改掉",
    async run(h) {
      const out: string[] = [];
      const b = h.agent({ responses: [text("the real answer")] });
      b.agent.mode = new h.mod.PrintMode({ log: (line) => void out.push(line) });
      b.agent.runtime?.use((api) =>
        api.on("message", (e) => {
          if (e.type === "message") e.content = "HACKED";
        }),
      );
      await h.mod.runOneTurn(b.agent, "first");
      return { out };
    },
    expected: { out: ["the real answer"] },
  },

  // ── 第 11 类：一直不回话的 provider（s03 起，D35） ────────────
  {
    id: "provider-never-answers",
    since: "s03",
    input: "provider 一直不交出第一个事件（core 没有取消，只能等；等的时候再来一轮被拒绝）",
    async run(h) {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const b = h.agent();
      b.agent.provider = {
        async *stream() {
          await gate;
          yield* text("finally") as never[];
        },
      };
      let done = false;
      const first = h.mod.runOneTurn(b.agent, "hang").then((reply) => ((done = true), reply));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const pending = !done;
      const meanwhile = await h.mod.runOneTurn(b.agent, "meanwhile");
      release();
      return { pending, meanwhile, reply: await first, messages: b.all() };
    },
    expected: {
      pending: true,
      meanwhile: a("error: agent is already processing a prompt", "error"),
      reply: a("finally"),
      messages: [u("hang"), a("finally")],
    },
  },
];

// ── 跑表 ─────────────────────────────────────────────────
function harness(id: string, mod: LessonModule): Harness {
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

describe("坏输入表", () => {
  it("每行 id 不重复", () => {
    expect(new Set(ROWS.map((row) => row.id)).size).toBe(ROWS.length);
  });
});

forLessonsFrom("s01", (id, load) => {
  for (const row of ROWS.filter((rw) => lessonNumber(rw.since) <= lessonNumber(id))) {
    it(`${row.id}（${row.since} 起）：${row.input}`, async () => {
      const mod = await load();
      expect(await row.run(harness(id, mod))).toEqual(row.expected);
    });
  }
});
