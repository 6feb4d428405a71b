// 回放的数据形状：npm run gen:replay（scripts/record-replay.ts）写进 site/replay/sNN.json，网页的 Replay 组件读它。
// 这个文件只有类型，Vue 组件和 Node 脚本都能引用。

/** 一步是什么。 */
export type StepKind =
  | "scene" // 一段演示开始：装了哪些零件
  | "user" // 用户消息存进历史
  | "request" // core 调 provider（complete / stream），带着这次的输入
  | "reply" // s01–s02：complete 回来的一整段话
  | "stream" // 流里的 message_start 和一段段 text_delta
  | "tool_call" // 流里的 tool_call 事件
  | "message_end" // 流里的 message_end
  | "throw" // provider 抛错
  | "hook" // beforeToolCall / afterToolCall 的决定
  | "tool" // ToolRegistry.run 执行了一个调用
  | "stored" // 一条助手消息或工具结果存进历史（s07 起是会话树）
  | "event" // 运行时广播的事件（s09 起）
  | "tree" // 会话树 moveTo
  | "command" // 扩展的命令
  | "extension" // ExtensionRuntime.use
  | "package" // 装包
  | "register" // 演示中途登记工具
  | "return"; // runOneTurn / runEventedToolLoop 返回

/** 存进历史的一条消息；s07 起带会话树的 id 和 parentId。 */
export type ReplayEntry = {
  id?: string;
  parentId?: string | null;
  role: string;
  content: string;
  stopReason?: string;
  toolCallId?: string;
};

export type ReplayStep = {
  kind: StepKind;
  /** 这一步靠的是哪一课装上的零件，如 "s04"。 */
  lesson: string;
  title: string;
  /** 原样显示的细节（等宽字体）。 */
  detail?: string;
  /** 一句说明：这一步为什么发生、该看什么。 */
  note: string;
  /** 这一步期间 Output 写出的行（终端上看到的）。 */
  output?: string[];
  /** kind "user" / "stored"：存下的消息。 */
  entry?: ReplayEntry;
  /** kind "tree"：moveTo 之后的叶子。 */
  leaf?: string;
  /** 属于第几段演示（runs 的下标）。 */
  run: number;
};

export type ReplayRun = {
  /** tooling/scenarios/data.ts 里的场景 id。 */
  id: string;
  about: string;
  /** 这段演示开头装好的零件，一行一个。 */
  setup: string[];
};

export type Replay = {
  lesson: string;
  runs: ReplayRun[];
  steps: ReplayStep[];
};
