// 坏输入：课程接受的每一种不可信输入，一行一个，每行写明预期的结构化结果——一句清楚的错误，而且什么都没丢：
// 之前存下的消息一条不少，失败的安装不留半截（工具、命令、资料、扩展错误记录都和之前一样）。
// 每行对「引入这种输入的那一课」及之后的每一课都跑。
import { describe, expect, it } from "vitest";
import {
  type Call,
  type Hooks,
  type LessonModule,
  type Msg,
  type RuntimeEventLike,
  type Step,
  type TestAgent,
  type ToolLike,
  echoTool,
  forLessonsFrom,
  lessonNumber,
  makeAgent,
  scriptedProvider,
  text,
  toolUse,
} from "./support/lessons.ts";

type Harness = {
  id: string;
  n: number;
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

const call = (id: string, name: string, input: unknown): Call => ({ id, name, input: input as Record<string, unknown> });
const start: Step = { type: "message_start" };
const delta = (t: string): Step => ({ type: "text_delta", text: t });
const end = (stopReason: string): Step => ({ type: "message_end", stopReason });
const u = (content: string): Msg => ({ role: "user", content });
const a = (content: string, stopReason = "stop"): Msg => ({ role: "assistant", content, stopReason });
const r = (toolCallId: string, content: string): Msg => ({ role: "toolResult", toolCallId, content });

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
  ).map(
    ([id, input, hooks, result, handlerCalls]): Row => ({
      id,
      since: "s05",
      input,
      async run(h) {
        const t = echoTool("a");
        const { messages } = await secondTurn(h, [toolUse("", call("c1", "a", { text: "x" })), text("done")], { tools: [t.tool], hooks });
        return { messages, handlerCalls: t.calls };
      },
      expected: { messages: [...FIRST, u("second"), a("", "toolUse"), r("c1", result), a("done")], handlerCalls },
    }),
  ),

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
    input: "包里的技能和已加载的技能同名",
    run: (h) => installRow(h, { manifest: { name: "p", tools: [], commands: [], resources: ["skills/mine"] }, contents: { "skills/mine": "Theirs." } }),
    expected: refused(/skills\/mine/),
  },
];

// ── 跑表 ─────────────────────────────────────────────────
function harness(id: string, mod: LessonModule): Harness {
  const n = lessonNumber(id);
  return {
    id,
    n,
    mod,
    agent(parts = {}) {
      const { provider } = scriptedProvider(id, (_input, k) => (parts.responses ?? [text("ok")])[k] ?? text("(script ended)"));
      const built = makeAgent(id, mod, { provider, tools: parts.tools, hooks: parts.hooks, trust: parts.trust, resources: parts.resources });
      const all = (): Msg[] => {
        const m = built.agent.state.messages;
        return Array.isArray(m) ? m.map((x) => ({ ...x })) : m.allEntries().map(({ role, content, stopReason, toolCallId }) => clean({ role: role as Msg["role"], content, stopReason, toolCallId }));
      };
      const state = (): State => {
        const s: State = { messages: all() };
        if (built.agent.registry !== undefined) s.tools = built.agent.registry.getSpecs().map((t) => t.name);
        if (built.agent.loader !== undefined) s.resources = built.agent.loader.load(n >= 11 ? "trusted" : undefined);
        if (built.agent.runtime !== undefined) s.errors = [...built.agent.runtime.errors];
        return s;
      };
      return { ...built, all, state };
    },
  };
}

const clean = (m: Msg): Msg => {
  const out: Msg = { role: m.role, content: m.content };
  if (m.stopReason !== undefined) out.stopReason = m.stopReason;
  if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
  return out;
};

describe("坏输入表", () => {
  it("每行 id 不重复", () => {
    expect(new Set(ROWS.map((row) => row.id)).size).toBe(ROWS.length);
  });
});

forLessonsFrom("s03", (id, load) => {
  for (const row of ROWS.filter((rw) => lessonNumber(rw.since) <= lessonNumber(id))) {
    it(`${row.id}（${row.since} 起）：${row.input}`, async () => {
      const mod = await load();
      expect(await row.run(harness(id, mod))).toEqual(row.expected);
    });
  }
});
