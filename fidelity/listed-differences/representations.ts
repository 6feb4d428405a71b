// 表示法对应：同一件事两边写法不同，归一时（或者由剧本的两种写法）对齐，不算差异。DIFFERENCES.md 每节末尾列出它们。

import type { Mechanism } from "../mechanisms.ts";

export type Where = Mechanism | "loop";

/** 表示法对应：同一件事两边写法不同，归一时（或者由剧本的两种写法）对齐，不算差异（见 compare.ts、observe.ts）。 */
export const REPRESENTATIONS: { where: Where; pi: string; mini: string; why: string }[] = [
  { where: "loop", pi: "toolResult 的 `isError: true`", mini: "结果文字以 `error: ` 开头", why: "D18：这个前缀是课程里「这是个错误结果」的唯一标记" },
  { where: "loop", pi: "出错的助手消息另有 `errorMessage`", mini: "助手消息最后一行 `error: <原因>`，前面是已收到的文字", why: "D6：课程的 content 只有一个字符串" },
  {
    where: "loop",
    pi: "助手消息 content 里的 `toolCall` 块（带 id）",
    mini: "provider 在这次回答里发出的 `tool_call` 事件",
    why: "课程的 AssistantMessage 只存文字和 stopReason（§2）；调用经事件流交给循环。只在历史里这样对齐，请求里看不到调用是 F13",
  },
  { where: "loop", pi: "content 是块数组（text / toolCall / …）", mini: "content 是一个字符串", why: "§2 字典；对照只取文字块拼起来" },
  {
    where: "loop",
    pi: "请求里的助手消息带 stopReason",
    mini: "ProviderMessage 不带 stopReason",
    why: "§2 字典；模型 API 也不收它。比较请求时两边都不看 stopReason",
  },
  {
    where: "s07",
    pi: "记录的 id 是随机的 8 位十六进制；消息记录是 `{type: \"message\", message}`",
    mini: "id 是 e1、e2……（D7）；SessionEntry 把消息的字段摊平",
    why: "对照时两边的节点都换成追加顺序里的位置 #0、#1……，父节点也用位置写",
  },
  {
    where: "s07",
    pi: "路径上助手消息里的调用（`toolCall` 块）",
    mini: "剧本记着每条追加的助手消息要过哪些调用",
    why: "和循环的历史一样（见上面循环的表示法对应）；发给模型时看不到调用仍是 F13",
  },
  {
    where: "s08",
    pi: "磁盘上的 AGENTS.md、.pi/skills/<名字>/SKILL.md、.pi/APPEND_SYSTEM.md（和用户目录的 skills/）",
    mini: "交给 ResourceLoader 的 agents、skill、prompt 资料：名字取文件名或技能目录名，内容取文件内容",
    why: "课程的 ResourceLoader 不读磁盘（§2 字典的构造函数收资料），mini-mechanisms.ts 的 resourcesFromFiles 替调用方读同一批文件；只读工作目录和用户目录，不往上找（F17）",
  },
  {
    where: "s08",
    pi: "SKILL.md 文件头里的 `description`",
    mini: "技能内容的第一行（说明一行，正文接在后面）",
    why: "D15：课程的技能索引取内容第一行，换成资料时把说明放在第一行。比的是说明和正文进没进系统提示，不比标题、标签怎么写",
  },
  {
    where: "s09",
    pi: "扩展文件默认导出 `ExtensionFactory`：`registerTool` 收 ToolDefinition（参数是 JSON Schema，execute 是 async），`registerCommand(名字, {handler})`",
    mini: "扩展文件默认导出 Extension：`registerTool` 收 Tool（spec 加同步的 handler），`registerCommand({name, run})`",
    why: "两边的 API 形状不同（§2 字典），同一份 ExtensionSpec 由 project.ts 各写一个文件。`ext-foreign-file` 把两个文件换过来装：两边都拒绝对方的文件，各记一条错误，什么都没登记",
  },
  {
    where: "s09",
    pi: "`message_end` 事件、`agent_end` 事件",
    mini: "`message` 事件、`done` 事件",
    why: "Pi 一边的监听者把它们记成课程的说法（pi-facts 的对应：message ↔ message_end，done ↔ agent_end）；Pi 事件里还带着的东西见 F22",
  },
  {
    where: "s09",
    pi: "工具钩子：扩展订阅 `tool_call`、`tool_result`（底下是 agent-core 的 beforeToolCall / afterToolCall）",
    mini: "s05 的 ToolHooks：beforeToolCall、afterToolCall，装在 Agent 上",
    why: "两边的工具钩子都包着每一个工具，宿主的和扩展登记的一样过钩子（「钩子看到的调用」）；课程的扩展 API 里没有钩子，钩子是 s05 的零件",
  },
  {
    where: "s09",
    pi: "命令的 handler 不返回文字",
    mini: "命令的 run() 返回文字",
    why: "对照时 Pi 的命令把自己的回复记下来，两边比的是「跑的是哪个扩展的命令」",
  },
  {
    where: "s10",
    pi: "`runPrintMode` 写到进程的标准输出和标准错误",
    mini: "PrintMode / JsonMode 写到 Output，一次一行",
    why: "演示里 Output 接到标准输出（consoleOutput）；对照时接住两边写出的东西，按换行符切成行",
  },
  {
    where: "s12",
    pi: "本地的包：package.json 的 `pi` 键列出扩展、skills、prompts 目录，工具和命令由扩展登记；包写进设置的 packages",
    mini: "Package：PackageManifest 列出 tools、commands、resources，contents 放模板、回复和资料；installPackage 装它",
    why: "同一份 PackageSpec 各写成一边的格式（project.ts、mini-mechanisms.ts 的 coursePackage），比的是装上以后有什么",
  },
];
