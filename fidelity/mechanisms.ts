// 机制剧本：循环以外的六个机制（会话树、资料、扩展、运行模式、信任、包），同一份数据交给真实 Pi
// （pi-mechanisms.ts，在 Node 24 上跑 pi-coding-agent 1.6.0）和每一课的 mini Pi（mini-mechanisms.ts）。
// 每个剧本两边各交一份「观察」：若干条事实（几行文字）和若干条轨迹，逐条比较（compare.ts 的 compareObservations）。
// 本文件不引用 Pi，也不引用课程代码：根目录的 `npm test` 会读它，而那里没有装 Pi。

import type { Reply } from "./scenarios.ts";

/** 机制剧本属于哪一课的机制，也就是从哪一课起适用。 */
export type Mechanism = "s07" | "s08" | "s09" | "s10" | "s11" | "s12";

export const MECHANISMS: Record<Mechanism, string> = {
  s07: "会话树（SessionTree ↔ SessionManager）",
  s08: "资料进系统提示（ResourceLoader ↔ DefaultResourceLoader）",
  s09: "扩展（ExtensionRuntime ↔ 扩展装载器和 ExtensionRunner）",
  s10: "运行模式（PrintMode / JsonMode ↔ runPrintMode）",
  s11: "信任（load(trust) ↔ 项目信任）",
  s12: "包（PackageManifest ↔ package.json 的 pi 键）",
};

// ── s07：会话树 ───────────────────────────────────────────
/** 往树上追加的一条消息。调用写在助手消息上（Pi 存成 toolCall 块，课程不存，由剧本记着）。 */
export type TreeMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; calls?: string[]; stop?: "stop" | "toolUse" }
  | { role: "assistant"; text: string; error: string }
  | { role: "toolResult"; callId: string; text: string; isError?: boolean };

/**
 * 树上的一步：追加一条消息；换到第 n 条追加的节点（从 0 数）；回到第一条之前重新开始；
 * 换到一个不存在的 id（两边都该报错，叶子不动）。
 */
export type TreeStep = { append: TreeMessage } | { branchTo: number } | { restart: true } | { branchToMissing: true };

// ── s08、s11：磁盘上的项目 ────────────────────────────────
/**
 * 剧本目录里的文件，路径相对剧本目录：`project/` 是工作目录，`agent/` 是 Pi 的用户目录（~/.pi/agent），
 * 剧本目录本身是工作目录的上一级。值是文件内容，或者一个扩展（由 project.ts 写成 Pi 的扩展文件）。
 */
export type ProjectFiles = Record<string, string | { extension: ExtensionSpec }>;

// ── s09、s12：扩展 ────────────────────────────────────────
/**
 * 一个扩展要做的事。Pi 和课程的扩展 API 形状不同，同一份说明由 project.ts 各写成一个扩展文件：
 * Pi 写法的交给 Pi 的装载器，课程写法的由 mini-mechanisms.ts import 后交给 ExtensionRuntime.use。
 */
export type ExtensionSpec = {
  /** 名字：课程里是函数名，Pi 里是文件名。 */
  name: string;
  /** 工具：template 里的 {参数} 就是参数，执行时把参数填进去（和 s12 的 templateTool 一样）。 */
  tools: { name: string; description: string; template: string }[];
  /** 命令：运行时把 reply 记进日志（Pi 的命令不返回文字），课程的命令返回它。 */
  commands: { name: string; reply: string }[];
  /** 订阅消息事件和结束事件，把看到的按顺序记进日志。 */
  listen?: boolean;
  /** 处理消息事件时，消息文字里有这一段就抛错。 */
  throwOn?: string;
  /** 登记完工具和命令以后抛错：装到一半坏掉。 */
  failLoading?: string;
};

/** 工具模板里的参数，按出现顺序、不重复。 */
export const templateParams = (template: string): string[] => [...new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))];

/** 按模板填参数：两边的扩展工具都用这一个函数，比的是扩展机制，不是工具本身。 */
export const fillTemplate = (template: string, args: Record<string, unknown>): string =>
  template.replace(/\{(\w+)\}/g, (_, p: string) => (typeof args[p] === "string" ? String(args[p]) : ""));

/** 宿主自己的工具：读工作目录里的文件。Pi 用内置的 read，课程在 registry 里登记一个同名同参数的工具。 */
export const HOST_READ = "read";

/** 工具钩子：记下看到的每个调用，在每个结果后面接上 suffix。Pi 里是订阅 tool_call / tool_result 的扩展，课程里是 s05 的 ToolHooks。 */
export type Gate = { suffix: string };

// ── s12：包 ───────────────────────────────────────────────
/**
 * 一个包的内容，两边各写成自己的格式：Pi 是带 pi 键的 package.json 加扩展文件、skills/、prompts/ 目录；
 * 课程是 PackageManifest 加 contents。brokenCommand：清单里写了这个命令，东西却没放进包里（两边各按自己的格式漏掉）。
 */
export type PackageSpec = {
  name: string;
  extension: ExtensionSpec;
  skills: Record<string, { description: string; body: string }>;
  prompts: Record<string, string>;
  brokenCommand?: string;
};

// ── 剧本 ──────────────────────────────────────────────────
type Base = { id: string; title: string };

export type MechanismScenario = Base &
  (
    | { mechanism: "s07"; steps: TreeStep[] }
    | { mechanism: "s08"; files: ProjectFiles; piTools: string[] }
    | {
        mechanism: "s09";
        extensions: ExtensionSpec[];
        gate?: Gate;
        /** 两边各装对方写法的扩展文件：Pi 装课程写法的，课程装 Pi 写法的。 */
        foreign?: boolean;
        input: string;
        replies: Reply[];
        commands: string[];
      }
    | { mechanism: "s10"; mode: "text" | "json"; input: string; replies: Reply[] }
    | { mechanism: "s11"; files: ProjectFiles; trust: "trusted" | "untrusted" }
    | {
        mechanism: "s12";
        extensions: ExtensionSpec[];
        pkg: PackageSpec;
        input?: string;
        replies?: Reply[];
        commands: string[];
        /** 包里的提示模板：Pi 里输入 /名字 展开成用户消息，课程追加在系统提示末尾。 */
        template?: string;
      }
  );

// ── 写剧本用的小工具 ───────────────────────────────────────
const answer = (text: string): Reply => ({ kind: "message", text, calls: [], stop: "stop" });
const callTools = (text: string, ...calls: { id: string; name: string; args: Record<string, unknown> }[]): Reply => ({
  kind: "message",
  text,
  calls,
  stop: "toolUse",
});

/** SKILL.md：Pi 要求文件头里有 name 和 description。 */
export const skillFile = (name: string, description: string, body: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** s07 的基础对话：一次工具调用、它的结果、回答，再一问一答。 */
const CONVERSATION: TreeStep[] = [
  { append: { role: "user", text: "看看 README.md" } },
  { append: { role: "assistant", text: "我读一下。", calls: ["call_1"], stop: "toolUse" } },
  { append: { role: "toolResult", callId: "call_1", text: "# todo-app" } },
  { append: { role: "assistant", text: "这是一个待办清单项目。" } },
  { append: { role: "user", text: "用什么包管理器？" } },
  { append: { role: "assistant", text: "用 pnpm。" } },
];

const AGENTS = "用 pnpm，不要用 npm。提交前先跑 pnpm test。";
const PARENT_AGENTS = "这个仓库里的每个项目都用 TypeScript。";
const APPEND = "回答用中文，先给结论。";
const RELEASE = { description: "发布新版本：打 tag、写 changelog。", body: "1. pnpm version patch\n2. 更新 CHANGELOG.md" };
const REVIEW = { description: "审代码：先看测试，再看改动。", body: "先跑 pnpm test，再逐个文件读 diff。" };
const MINE = { description: "我自己的写作习惯：句子要短。", body: "每句不超过二十个字。" };
/** 用户目录里的技能（不是项目的）：Pi 不看项目信任就加载它。 */
export const USER_SKILL = "mine";

const RESOURCES: ProjectFiles = {
  "project/AGENTS.md": AGENTS,
  "project/.pi/skills/release/SKILL.md": skillFile("release", RELEASE.description, RELEASE.body),
  "project/.pi/skills/review/SKILL.md": skillFile("review", REVIEW.description, REVIEW.body),
  "project/.pi/APPEND_SYSTEM.md": APPEND,
};

/** 演示扩展：一个数字符的工具、一个命令，订阅事件。 */
const STATS: ExtensionSpec = {
  name: "stats",
  tools: [{ name: "wc", description: "数一个文件有多少个字符", template: "{path} 共 10 个字符" }],
  commands: [{ name: "stats", reply: "stats 扩展在工作" }],
  listen: true,
};

/** 一轮：模型一次要宿主的 read 和扩展的 wc，再回答。 */
const READ_AND_WC: Reply[] = [
  callTools("我读一下，再数一下。", { id: "call_1", name: HOST_READ, args: { path: "README.md" } }, { id: "call_2", name: "wc", args: { path: "README.md" } }),
  answer("README.md 是标题，共 10 个字符。"),
];

const TRUST_PROJECT: ProjectFiles = {
  ...RESOURCES,
  "project/.pi/extensions/lint.ts": {
    extension: { name: "lint", tools: [{ name: "lint", description: "检查代码风格", template: "{path}: 没有问题" }], commands: [] },
  },
  [`agent/skills/${USER_SKILL}/SKILL.md`]: skillFile(USER_SKILL, MINE.description, MINE.body),
};

const GIT_HELPERS: PackageSpec = {
  name: "git-helpers",
  extension: {
    name: "git-helpers",
    tools: [{ name: "commit_message", description: "拼一条提交信息", template: "{type}: {summary}" }],
    commands: [{ name: "version", reply: "git-helpers 1.0.0" }],
  },
  skills: { commit: { description: "写提交信息：类型 + 冒号 + 一句话。", body: "类型用 feat、fix、docs 之一。" } },
  prompts: { style: "提交信息用英文小写开头。" },
};

export const MECHANISM_SCENARIOS: MechanismScenario[] = [
  // ── s07 ──
  {
    id: "tree-branch-back",
    title: "回到第一轮的回答另起一支，再继续；换到不存在的节点",
    mechanism: "s07",
    steps: [
      ...CONVERSATION,
      { branchTo: 3 },
      { append: { role: "user", text: "换个问题：有测试吗？" } },
      { append: { role: "assistant", text: "有，pnpm test。" } },
      { branchToMissing: true },
    ],
  },
  {
    id: "tree-branch-to-root",
    title: "换到根（第一条提问），重新回答",
    mechanism: "s07",
    steps: [...CONVERSATION, { branchTo: 0 }, { append: { role: "assistant", text: "这是一个待办清单项目，我没读文件就答了。" } }],
  },
  {
    id: "tree-branch-to-tool-result",
    title: "换到一条工具结果，换一种说法回答",
    mechanism: "s07",
    steps: [...CONVERSATION, { branchTo: 2 }, { append: { role: "assistant", text: "README 的标题写着 todo-app。" } }],
  },
  {
    id: "tree-branch-to-tool-call",
    title: "换到要了工具的那条回答（它的结果不在新路径上），接着提问",
    mechanism: "s07",
    steps: [...CONVERSATION, { branchTo: 1 }, { append: { role: "user", text: "算了，不用读了。" } }],
  },
  {
    id: "tree-restart",
    title: "回到第一条提问之前，从头另问",
    mechanism: "s07",
    steps: [...CONVERSATION, { restart: true }, { append: { role: "user", text: "从头问：这是什么项目？" } }, { append: { role: "assistant", text: "待办清单。" } }],
  },
  {
    id: "tree-error-on-path",
    title: "路径上有一条出错的回答：存着，发给模型时呢",
    mechanism: "s07",
    steps: [
      { append: { role: "user", text: "讲讲" } },
      { append: { role: "assistant", text: "我先说一半", error: "connection reset" } },
      { append: { role: "user", text: "再试一次" } },
    ],
  },
  // ── s08 ──
  {
    id: "prompt-resources",
    title: "AGENTS.md、两个技能、一段追加提示：哪些进系统提示、按什么顺序、技能什么样",
    mechanism: "s08",
    files: RESOURCES,
    piTools: ["read"],
  },
  {
    id: "prompt-ancestors",
    title: "上一级目录也有 AGENTS.md",
    mechanism: "s08",
    files: { "AGENTS.md": PARENT_AGENTS, "project/AGENTS.md": AGENTS },
    piTools: ["read"],
  },
  {
    id: "prompt-no-read-tool",
    title: "没有能读文件的工具时，技能还进不进系统提示",
    mechanism: "s08",
    files: RESOURCES,
    piTools: [],
  },
  {
    id: "prompt-nothing",
    title: "项目里什么资料都没有",
    mechanism: "s08",
    files: {},
    piTools: ["read"],
  },
  // ── s09 ──
  {
    id: "ext-one-turn",
    title: "一个扩展登记工具、命令并订阅事件：登记了什么、工具过不过钩子、监听者看到什么",
    mechanism: "s09",
    extensions: [STATS],
    gate: { suffix: " [checked]" },
    input: "数一下 README.md",
    replies: READ_AND_WC,
    commands: ["stats"],
  },
  {
    id: "ext-name-clash",
    title: "第二个扩展的工具、命令和已有的重名，还想换掉宿主的 read",
    mechanism: "s09",
    extensions: [
      STATS,
      {
        name: "copycat",
        tools: [
          { name: "wc", description: "另一个 wc", template: "copycat 的 wc" },
          { name: HOST_READ, description: "另一个 read", template: "copycat 的 read：{path}" },
        ],
        commands: [{ name: "stats", reply: "copycat 的 stats" }],
      },
    ],
    input: "数一下 README.md",
    replies: READ_AND_WC,
    commands: ["stats"],
  },
  {
    id: "ext-throwing-handler",
    title: "一个扩展的监听者碰到工具结果就抛错：这一轮照常跑完，别的监听者照常收到",
    mechanism: "s09",
    extensions: [{ name: "fragile", tools: [], commands: [], throwOn: "共 10 个字符" }, STATS],
    input: "数一下 README.md",
    replies: READ_AND_WC,
    commands: [],
  },
  {
    id: "ext-broken-factory",
    title: "一个扩展登记了命令以后抛错：它登记的东西留不留",
    mechanism: "s09",
    extensions: [{ name: "broken", tools: [], commands: [{ name: "half", reply: "不该出现" }], failLoading: "config file missing" }, STATS],
    input: "数一下 README.md",
    replies: READ_AND_WC,
    commands: ["half", "stats"],
  },
  {
    id: "ext-foreign-file",
    title: "同一个扩展换成对方的写法：Pi 装课程的扩展文件，课程装 Pi 的扩展文件",
    mechanism: "s09",
    extensions: [STATS],
    foreign: true,
    input: "数一下 README.md",
    replies: READ_AND_WC,
    commands: ["stats"],
  },
  // ── s10 ──
  {
    id: "mode-text",
    title: "文字模式：调一次工具再回答，读的人看到什么",
    mechanism: "s10",
    mode: "text",
    input: "看看 README.md",
    replies: [callTools("我读一下。", { id: "call_1", name: HOST_READ, args: { path: "README.md" } }), answer("这是一个待办清单项目。")],
  },
  {
    id: "mode-json",
    title: "JSON 模式：同一轮，按行读的程序能读出什么",
    mechanism: "s10",
    mode: "json",
    input: "看看 README.md",
    replies: [callTools("我读一下。", { id: "call_1", name: HOST_READ, args: { path: "README.md" } }), answer("这是一个待办清单项目。")],
  },
  {
    id: "mode-error",
    title: "文字模式：provider 出错，错误说明写到哪",
    mechanism: "s10",
    mode: "text",
    input: "在吗",
    // Pi 的会话会重试（剧本里调成一次），所以 provider 连着两次出错
    replies: [
      { kind: "error", message: "provider unavailable (503)" },
      { kind: "error", message: "provider unavailable (503)" },
    ],
  },
  {
    id: "mode-line-separator",
    title: "JSON 模式：回答里有 U+2028",
    mechanism: "s10",
    mode: "json",
    input: "分两行说",
    replies: [answer("第一行\u2028第二行")],
  },
  // ── s11 ──
  {
    id: "trust-untrusted",
    title: "同一个项目，不信任：哪些资料加载",
    mechanism: "s11",
    files: TRUST_PROJECT,
    trust: "untrusted",
  },
  {
    id: "trust-trusted",
    title: "同一个项目，信任：哪些资料加载",
    mechanism: "s11",
    files: TRUST_PROJECT,
    trust: "trusted",
  },
  // ── s12 ──
  {
    id: "package-local",
    title: "本地的包：带一个工具、一个命令、一个技能、一个提示模板，装上后有什么",
    mechanism: "s12",
    extensions: [],
    pkg: GIT_HELPERS,
    input: "帮我写一条提交信息",
    replies: [callTools("", { id: "call_1", name: "commit_message", args: { type: "feat", summary: "add store" } }), answer("feat: add store")],
    commands: ["version"],
    template: "style",
  },
  {
    id: "package-broken",
    title: "清单里写了一个命令，包里却没有它",
    mechanism: "s12",
    extensions: [],
    pkg: { ...GIT_HELPERS, name: "broken", brokenCommand: "changelog" },
    commands: ["version", "changelog"],
  },
  {
    id: "package-clash",
    title: "包里的工具和已装扩展的工具重名",
    mechanism: "s12",
    extensions: [STATS],
    pkg: { ...GIT_HELPERS, name: "clashing", extension: { ...GIT_HELPERS.extension, name: "clashing", tools: [...GIT_HELPERS.extension.tools, { name: "wc", description: "包里的 wc", template: "clashing 的 wc" }] } },
    commands: ["version", "stats"],
  },
];

/** 技能、追加提示、项目说明的原文，两边拼提示的结果按它们认：一段资料进没进提示、在哪、是全文还是只有索引。 */
export const TEXTS = { AGENTS, PARENT_AGENTS, APPEND, RELEASE, REVIEW, MINE } as const;
