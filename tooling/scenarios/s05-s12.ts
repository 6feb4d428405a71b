// s05–s12 的场景：钩子、快照、会话树、资料、扩展、运行模式、信任、包。写法见 tooling/scenarios/data.ts。
import { call, text, toolUse } from "../screenplay.ts";
import type { Scenario } from "./shape.ts";

export const PARTS: Scenario[] = [
  // ── s05 ──────────────────────────────────────────────────
  {
    id: "s05-demo",
    since: "s05",
    about: "s05 main()：一次要两个调用，权限闸拦下删除，放行读取并给密钥打码",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    steps: [{ turn: "删掉 src/store.ts，再读一下 src/config.ts" }],
  },
  {
    id: "s05-hooks",
    since: "s05",
    about: "beforeToolCall 拦下 rm（handler 不跑），afterToolCall 改写结果",
    provider: { responses: [toolUse("", call("c1", "rm", { path: "a" }), call("c2", "ls", { dir: "." })), text("ok")] },
    tools: [{ name: "rm", params: ["path"] }, { name: "ls", params: ["dir"] }],
    hooks: { block: { rm: "needs approval" }, upper: true },
    steps: [{ turn: "go" }],
  },
  {
    id: "s05-hook-throws",
    since: "s05",
    about: "钩子抛错 → error: hook failed，不崩",
    provider: { responses: [toolUse("", call("c1", "a", { text: "x" })), text("ok")] },
    tools: [{ name: "a", params: ["text"] }],
    hooks: { afterThrows: "after exploded" },
    steps: [{ turn: "go" }],
  },

  {
    id: "s05-hooks-fail-closed",
    since: "s05",
    about: "D28：beforeToolCall 回 undefined、缺 reason 的 block、Pi 写法的 {block: true}，调用都不执行；afterToolCall 回的不是文字，结果作废",
    provider: { responses: [toolUse("", call("c1", "rm", { path: "a" }), call("c2", "ls", { dir: "." }), call("c3", "cat", { path: "b" }), call("c4", "a", { text: "x" })), text("ok")] },
    tools: [{ name: "rm", params: ["path"] }, { name: "ls", params: ["dir"] }, { name: "cat", params: ["path"] }, { name: "a", params: ["text"] }],
    hooks: { beforeReturns: { rm: undefined, ls: { type: "block" }, cat: { block: true, reason: "no" } } },
    steps: [{ turn: "go" }],
  },
  {
    id: "s05-after-hook-not-a-string",
    since: "s05",
    about: "D28：afterToolCall 回 undefined：handler 已经跑过，结果作废，写成 hook failed",
    provider: { responses: [toolUse("", call("c1", "a", { text: "x" })), text("ok")] },
    tools: [{ name: "a", params: ["text"] }],
    hooks: { afterReturns: undefined },
    steps: [{ turn: "go" }],
  },

  // ── s06 ──────────────────────────────────────────────────
  {
    id: "s06-demo",
    since: "s06",
    about: "s06 main()：一轮里登记的 git_log 这一轮看不到，下一轮才出现；最后换模型，下一轮由另一个 provider 回答",
    provider: "fake",
    tools: [
      "read",
      "ls",
      "rm",
      { name: "enable_git", does: { registers: { name: "git_log", does: { returns: "a1b2c3 add store; 9f8e7d init" } }, returns: "registered git_log" } },
    ],
    hooks: { gate: true },
    steps: [
      { turn: "打开 git 工具，看看提交记录" },
      { turn: "再看看提交记录" },
      { model: "terse-model", provider: { responses: [text("（terse-model）好。")] } },
      { turn: "总结一下" },
    ],
  },
  {
    id: "s06-snapshot",
    since: "s06",
    about: "一轮之内别处写进 state 的消息不进本轮请求，下一轮才看得到",
    provider: { responses: [toolUse("", call("c1", "note", {})), text("ok"), text("ok")] },
    tools: [{ name: "note", does: { appends: { role: "user", content: "sneaked in" }, returns: "noted" } }],
    steps: [{ turn: "1" }, { turn: "2" }],
  },

  {
    id: "s06-model-prototype-name",
    since: "s06",
    about: "第 6 类：state.model 叫 constructor、__proto__，providers 里没有这个键，照样用默认的 provider",
    // 剧本按请求的序号走，第 0 次请求发给了 other
    provider: { responses: [text("(not asked)"), text("default, for constructor"), text("default, for __proto__")] },
    steps: [
      { model: "other", provider: { responses: [text("from other")] } },
      { turn: "hi" },
      { model: "constructor" },
      { turn: "again" },
      { model: "__proto__" },
      { turn: "third" },
    ],
  },

  // ── s07 ──────────────────────────────────────────────────
  {
    id: "s07-demo",
    since: "s07",
    about: "s07 main()：问两轮，回到第一轮的回答另起一支",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    steps: [{ turn: "给这个项目起个名字" }, { turn: "再短一点" }, { moveTo: "e2" }, { turn: "换成中文名" }],
  },
  {
    id: "s07-branch",
    since: "s07",
    about: "分支：另一支的消息不发给 provider；moveTo 不存在的 id 是错误，树不变；移回去路径原样",
    provider: { responses: [text("ok"), text("ok"), toolUse("", call("c1", "a", { text: "x" })), text("done")] },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "first" }, { turn: "second" }, { moveTo: "e2" }, { turn: "third" }, { moveTo: "nope" }, { moveTo: "e4" }],
  },

  // ── s08 ──────────────────────────────────────────────────
  {
    id: "s08-demo",
    since: "s08",
    about: "s08 main()：问一个只有读了项目说明才答得上的问题",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: "demo",
    steps: [{ turn: "这个项目有什么规矩？" }],
  },
  {
    id: "s08-demo-no-resources",
    since: "s08",
    about: "s08 main()：换一个没有任何资料的 agent 问同一个问题",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: [],
    steps: [{ turn: "这个项目有什么规矩？" }],
  },
  {
    id: "s08-resources",
    since: "s08",
    about: "系统提示由资源拼成，在一轮开头定下，tools 照旧在",
    provider: { responses: [toolUse("", call("c1", "a", { text: "x" })), text("ok")] },
    tools: [{ name: "a", params: ["text"] }],
    resources: [
      { kind: "agents", name: "AGENTS.md", content: "Use pnpm." },
      { kind: "skill", name: "release", content: "Cut a release.\nstep 1\nstep 2" },
      { kind: "prompt", name: "style", content: "Answer briefly." },
    ],
    steps: [{ turn: "hi" }],
  },

  // ── s09 ──────────────────────────────────────────────────
  {
    id: "s09-demo",
    since: "s09",
    about: "s09 main()：一个坏扩展、一个好扩展；模型用扩展加的工具，再跑扩展加的命令",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: "demo",
    steps: [{ use: "broken" }, { use: "stats" }, { turn: "数一下 README.md 有多少字" }, { command: "stats" }, { command: "half" }],
  },
  {
    id: "s09-extensions",
    since: "s09",
    about: "扩展登记的工具照样被钩子拦；装到一半抛错的扩展不留东西；处理函数抛错记下来；命令与重名",
    provider: { responses: [toolUse("look", call("c1", "ext_tool", { text: "x" })), text("ok")] },
    hooks: { block: { ext_tool: "no extensions today" } },
    steps: [
      { use: { name: "good", tools: [{ name: "ext_tool", params: ["text"] }], commands: { hello: "hi there", crash: { throws: "nope" } } } },
      { use: { name: "bad", tools: [{ name: "half" }], commands: { half: "x" }, throws: "config missing" } },
      { use: { name: "buggy", listenerThrows: "listener bug" } },
      { use: { name: "dup", commands: { hello: "again" } } },
      { turn: "go" },
      { command: "hello" },
      { command: "crash" },
      { command: "half" },
      { command: "missing" },
    ],
  },

  // ── s10 ──────────────────────────────────────────────────
  {
    id: "s10-demo-print",
    since: "s10",
    about: "s10 main()：PrintMode 只打最终回答",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: "demo",
    mode: "print",
    steps: [{ use: "stats" }, { turn: "数一下 README.md 有多少字" }],
  },
  {
    id: "s10-demo-json",
    since: "s10",
    about: "s10 main()：JsonMode 每个事件一行",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: "demo",
    mode: "json",
    steps: [{ use: "stats" }, { turn: "数一下 README.md 有多少字" }],
  },
  {
    id: "s10-json-hostile",
    since: "s10",
    about: "JsonMode：换行、引号、控制字符、U+2028/2029、非 ASCII 也是每个事件一行",
    provider: { responses: [toolUse("line1\nline2", call("c1", "a", { text: '"q" \\ \u0000\u001b[31m' })), text("中文 🙂 \u2028\u2029 \r end")] },
    tools: [{ name: "a", params: ["text"] }],
    mode: "json",
    steps: [{ turn: "hi" }],
  },

  // ── s11 ──────────────────────────────────────────────────
  {
    id: "s11-demo-untrusted",
    since: "s11",
    about: "s11 main()：不信任的项目，模型看不到项目说明；删除照样被钩子拦下",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: "demo",
    trust: "untrusted",
    steps: [{ turn: "这个项目有什么规矩？" }, { turn: "删掉 src/store.ts，再读一下 README.md" }],
  },
  {
    id: "s11-demo-trusted",
    since: "s11",
    about: "s11 main()：信任之后才看得到项目说明",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: "demo",
    trust: "trusted",
    steps: [{ turn: "这个项目有什么规矩？" }, { turn: "删掉 src/store.ts，再读一下 README.md" }],
  },

  // ── s12 ──────────────────────────────────────────────────
  {
    id: "s12-demo",
    since: "s12",
    about: "s12 main()：装扩展、装包、装坏包；两轮；回到第一轮的回答另起一支；看树和命令",
    provider: "fake",
    tools: ["read", "ls", "rm"],
    hooks: { gate: true },
    resources: "demo",
    trust: "trusted",
    steps: [
      { use: "stats" },
      { install: "demo" },
      {
        install: {
          manifest: { name: "broken", tools: ["commit_message"], commands: ["changelog"], resources: ["skills/commit"] },
          contents: {
            commit_message: "{type}: {summary}",
            version: "git-helpers 1.0.0",
            "skills/commit": "写提交信息：类型 + 冒号 + 一句话。\n类型用 feat、fix、docs 之一。",
          },
        },
      },
      { turn: "这个项目有什么规矩？" },
      { turn: "帮我写一条提交信息" },
      { moveTo: "e2" },
      { turn: "数一下 README.md 有多少字" },
      { command: "version" },
      { command: "stats" },
    ],
  },
  {
    id: "s12-packages",
    since: "s12",
    about: "装包：工具按模板干活、命令可跑、资料进系统提示；和已有工具/命令重名的包整包拒绝",
    provider: { responses: [toolUse("", call("c1", "greet", { who: "pi" })), text("ok")] },
    tools: [{ name: "taken", params: ["text"] }],
    steps: [
      { use: { name: "mine", commands: { mine: "mine" } } },
      {
        install: {
          manifest: { name: "pkg", tools: ["greet"], commands: ["ver"], resources: ["skills/hello"] },
          contents: { greet: "hello {who}", ver: "pkg 1.0", "skills/hello": "Say hello.\nmore" },
        },
      },
      { install: { manifest: { name: "clash-tool", tools: ["taken"], commands: [], resources: ["AGENTS.md"] }, contents: { taken: "x", "AGENTS.md": "EVIL" } } },
      { install: { manifest: { name: "clash-cmd", tools: ["fresh"], commands: ["mine"], resources: [] }, contents: { fresh: "x", mine: "y" } } },
      { turn: "go" },
      { command: "ver" },
      { command: "mine" },
      { command: "fresh" },
    ],
  },
];
