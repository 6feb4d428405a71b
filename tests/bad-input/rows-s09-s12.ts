// 坏输入表：扩展与命令、JSON 模式、信任、包清单、重名（s09–s12）。每行写明不可信的输入和预期的结构化结果（形状见 ./harness.ts）。
import { expect } from "vitest";
import { echoTool, scriptedProvider } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { RuntimeEventLike } from "../../tooling/lesson.ts";
import { assistant as a, call, text, toolUse, toolResult as r, user as u } from "../../tooling/screenplay.ts";
import { type Row, type Resource, FIRST, goodPackage, withManifest, installRow, refused, HOSTILE } from "./harness.ts";

export const ROWS_S09_S12: Row[] = [
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
    id: "extension-tool-without-spec",
    since: "s09",
    input: "扩展登记的工具连 spec 都没有（只有一个 handler）",
    async run(h) {
      const b = h.agent();
      b.agent.runtime?.use(function noSpec(api) {
        api.registerTool({ handler: () => "x" } as never);
      });
      return { state: b.state() };
    },
    expected: {
      state: { messages: [], tools: [], resources: [], errors: [expect.stringMatching(/^error: extension "noSpec" failed to load: invalid tool: spec: /)] },
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
];
