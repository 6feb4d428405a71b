// 每一课的场景，写成数据：它的演示（main() 里做的事），和它的测试在意的情形。
// 像 Crafting Interpreters 每章都重跑前面所有章的测试：引入场景的那一课产出黄金轨迹（tests/golden/<id>.json），
// 之后的每一课都得跑出同样的轨迹；确有不同，只能是 tooling/scenarios/differences.ts 里列出、写明原因的那几处。
// 形状见 tooling/scenarios/shape.ts，运行见 tooling/scenarios/run.ts。
import { type Step, call, delta, end, start, text, toolCall, toolUse } from "../script.ts";
import type { Scenario } from "./shape.ts";

export const SCENARIOS: Scenario[] = [
  // ── s01 ──────────────────────────────────────────────────
  {
    id: "s01-demo",
    since: "s01",
    about: "s01 main()：两轮正常对话，再来一轮 provider 出错",
    provider: "fake",
    steps: [{ turn: "你好" }, { turn: "帮我看看这个项目" }, { turn: "这次让它崩一下" }],
  },
  {
    id: "s01-one-turn",
    since: "s01",
    about: "一轮对话恰好存下 user + assistant",
    provider: { responses: [text("好的")] },
    steps: [{ turn: "你好" }],
  },
  {
    id: "s01-provider-throws",
    since: "s01",
    about: "R4 ①：provider 抛错变成 error 助手消息，下一轮照常",
    provider: { responses: [[{ type: "throw", message: "boom 503" }], text("back")] },
    steps: [{ turn: "hi" }, { turn: "again" }],
  },

  // ── s02 ──────────────────────────────────────────────────
  {
    id: "s02-demo",
    since: "s02",
    about: "s02 main()：登记工具前后各问一次，再重复登记 read",
    provider: "fake",
    steps: [{ turn: "你有哪些工具？" }, { register: "read" }, { register: "ls" }, { turn: "现在呢，有哪些工具？" }, { register: "read" }],
  },
  {
    id: "s02-registry-tools",
    since: "s02",
    about: "工具清单取自 registry，新登记的下一轮就看得到；重名登记是错误",
    provider: { responses: [text("ok"), text("ok")] },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "1" }, { register: { name: "b", params: ["text"] } }, { turn: "2" }, { register: { name: "a", params: ["other"] } }],
  },

  // ── s03 ──────────────────────────────────────────────────
  {
    id: "s03-demo",
    since: "s03",
    about: "s03 main()：一次正常的流式回答，流断在半路，流没收尾",
    provider: "fake",
    tools: ["read", "ls"],
    steps: [{ turn: "你有哪些工具？" }, { turn: "说到一半断了" }, { turn: "结尾漏了" }],
  },
  {
    id: "s03-stream-pieces",
    since: "s03",
    about: "按顺序拼起流里的文字",
    provider: { responses: [[start, delta("一"), delta("二"), delta("三"), delta("四"), end("stop")]] },
    steps: [{ turn: "数数" }],
  },
  {
    id: "s03-stream-breaks",
    since: "s03",
    about: "流中途抛错：保留已收到的文字，接一行 error",
    provider: { responses: [[start, delta("半句"), { type: "throw", message: "connection reset" }]] },
    steps: [{ turn: "hi" }],
  },
  {
    id: "s03-no-message-end",
    since: "s03",
    about: "流没发 message_end 就结束",
    provider: { responses: [[start, delta("x")]] },
    steps: [{ turn: "hi" }],
  },
  {
    id: "s03-events-out-of-order",
    since: "s03",
    about: "事件乱序：没有 message_start、message_start 出现两次、message_end 之后还有文字",
    provider: { responses: [[delta("a"), start, delta("b"), start, end("stop"), delta("never"), end("error")]] },
    steps: [{ turn: "hi" }],
  },

  {
    id: "s03-invalid-events",
    since: "s03",
    about: "D26：事件不可信——stopReason 不在 StopReason 里、事件是 null、text 不是字符串，这条回答都以出错收尾并写明收到了什么；之后照常",
    provider: {
      responses: [
        [start, delta("ab"), end("length")],
        [start, null as unknown as Step],
        [start, delta("x"), { type: "text_delta", text: 42 } as unknown as Step, end("stop")],
        text("ok"),
      ],
    },
    steps: [{ turn: "1" }, { turn: "2" }, { turn: "3" }, { turn: "4" }],
  },

  // ── s04 ──────────────────────────────────────────────────
  {
    id: "s04-demo",
    since: "s04",
    about: "s04 main()：读不存在的文件、调不存在的工具、一直调工具撞上 maxTurns = 3",
    provider: "fake",
    tools: ["read", "ls"],
    steps: [{ turn: "src/app.ts 里写了什么？" }, { turn: "用 grep 搜一下 FILE" }, { loop: "一直列目录，别停", maxTurns: 3 }],
  },
  {
    id: "s04-two-calls",
    since: "s04",
    about: "一次回答要两个调用：助手消息（toolUse）后按调用顺序跟着各自的结果",
    provider: { responses: [toolUse("先查", call("c1", "a", { text: "x" }), call("c2", "a", { text: "y" })), text("查完了")] },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "go" }],
  },
  {
    id: "s04-tool-errors",
    since: "s04",
    about: "未知工具、参数缺失/不是字符串/多余、handler 抛错：都是 error 结果，循环继续",
    provider: {
      responses: [
        toolUse(
          "",
          call("c1", "nope", {}),
          call("c2", "read", {}),
          call("c3", "read", { path: 42 }),
          call("c4", "read", { path: "x", extra: "y" }),
          call("c5", "boom", {}),
          call("c6", "read", { path: "ok.txt" }),
        ),
        text("换个办法"),
      ],
    },
    tools: [{ name: "read", params: ["path"] }, { name: "boom", does: { throws: "kaboom" } }],
    steps: [{ turn: "go" }],
  },
  {
    id: "s04-stream-throws-after-tool",
    since: "s04",
    about: "R4 ①：工具之后 provider 流抛错，本轮以 error 助手消息结束",
    provider: { responses: [toolUse("", call("c1", "a", { text: "x" })), [{ type: "throw", message: "overloaded" }]] },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "go" }],
  },
  {
    id: "s04-max-turns",
    since: "s04",
    about: "R5：模型一直要工具，maxTurns 次请求后停下，存一条 max turns reached",
    provider: { responses: [], then: toolUse("", call("c{n}", "a", { text: "x" })) },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ loop: "loop", maxTurns: 3 }],
  },
  {
    id: "s04-calls-not-run",
    since: "s04",
    about: "D19：回答不以 toolUse 收尾，其中的调用不执行；message_end 之后的调用不执行",
    provider: {
      responses: [
        [toolCall(call("c1", "a", { text: "x" })), end("stop")],
        [start, toolCall(call("c2", "a", { text: "y" })), end("toolUse"), toolCall(call("c3", "a", { text: "late" }))],
        text("ok"),
      ],
    },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "first" }, { turn: "second" }],
  },
  {
    id: "s04-mid-turn-register",
    since: "s04",
    about: "D20：一轮之内工具执行时登记了新工具——s04–s05 下一次请求就看得到",
    provider: { responses: [toolUse("", call("c1", "add", {})), text("ok"), text("ok")] },
    tools: [{ name: "add", does: { registers: { name: "late", params: ["text"] }, returns: "added" } }],
    steps: [{ turn: "1" }, { turn: "2" }],
  },

  {
    id: "s04-untrusted-calls-and-results",
    since: "s04",
    about: "D26/D27：tool_call 缺 call，整条回答出错、前面的调用也不执行；handler 回数字、对象、undefined，各是一条说清楚的错误结果；之后照常",
    provider: {
      responses: [
        [start, toolCall(call("c1", "a", { text: "x" })), { type: "tool_call" } as unknown as Step, end("toolUse")],
        toolUse("", call("c2", "num", {}), call("c3", "obj", {}), call("c4", "none", {}), call("c5", "a", { text: "y" })),
        text("ok"),
      ],
    },
    tools: [
      { name: "a", params: ["text"] },
      { name: "num", does: { returnsValue: 42 } },
      { name: "obj", does: { returnsValue: { lines: 3 } } },
      { name: "none", does: { returnsValue: undefined } },
    ],
    steps: [{ turn: "first" }, { turn: "second" }],
  },

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

/** 一课的演示场景：id 以 `sNN-demo` 开头、由这一课引入的场景，按表里的顺序（和 main() 做的事一样）。 */
export const demoScenarios = (lesson: string): Scenario[] => SCENARIOS.filter((s) => s.since === lesson && s.id.startsWith(`${lesson}-demo`));
