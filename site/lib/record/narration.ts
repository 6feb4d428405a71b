// 回放里每一步写什么：一张按步骤种类（StepKind）排的表，每一行给出标题、细节和一句说明，
// 以及「这一步靠的是哪一课的零件」。课与课的不同（比如有了快照，同一轮里的再一次请求说法就变了）问功能表 has()，不比课号。
import { lessonId } from "../../../tooling/course.ts";
import { type Feature, has, introducedIn } from "../../../tooling/features.ts";
import { type Call, type Input, type LessonModule, type Msg, type RuntimeEventLike, describeError } from "../../../tooling/lesson.ts";
import type { Scenario } from "../../../tooling/scenarios/shape.ts";
import type { ReplayEntry, ReplayStep } from "../replay-types.ts";

/** 一步的内容，还没编号（run 由记录器填）。 */
export type StepInput = Omit<ReplayStep, "run">;

/** 这一步靠的零件是哪一课装上的：没写零件就是第一课的（一轮对话、Output）。 */
const by = (part?: Feature): string => (part === undefined ? lessonId(1) : introducedIn(part));

export const clip = (text: string, max = 120): string => {
  const one = text.replace(/\n/g, "⏎");
  return [...one].length > max ? `${[...one].slice(0, max - 1).join("")}…` : one;
};
const quote = (text: string): string => JSON.stringify(text);
const callText = (call: Call): string => `${call.name}(${JSON.stringify(call.input)})`;

// ── 钩子（s05） ──────────────────────────────────────────
const hook = {
  beforeThrew: (call: Call, error: unknown): StepInput => ({
    kind: "hook",
    lesson: by("hooks"),
    title: `beforeToolCall 抛错（${call.name}）`,
    detail: `${callText(call)}\n抛出：${describeError(error)}`,
    note: "钩子自己出了错：executeToolCall 捕获它，结果写成 error: hook failed: …，循环照常往下走（R4 ②）。",
  }),
  blocked: (call: Call, reason: string): StepInput => ({
    kind: "hook",
    lesson: by("hooks"),
    title: `beforeToolCall 拦下 ${call.name}`,
    detail: `${callText(call)}\n→ block：${reason}`,
    note: `handler 根本不会执行；模型收到的结果是 error: blocked: ${reason}。拦什么由钩子决定，registry 不用改（R2）。`,
  }),
  allowed: (call: Call): StepInput => ({
    kind: "hook",
    lesson: by("hooks"),
    title: `beforeToolCall 放行 ${call.name}`,
    detail: `${callText(call)}\n→ allow`,
    note: "执行前先问钩子能不能做；放行了，才交给 registry 去执行。",
  }),
  afterThrew: (call: Call, error: unknown): StepInput => ({
    kind: "hook",
    lesson: by("hooks"),
    title: `afterToolCall 抛错（${call.name}）`,
    detail: `抛出：${describeError(error)}`,
    note: "钩子出错同样不往外抛：结果写成 error: hook failed: …（R4 ②）。",
  }),
  rewrote: (call: Call, result: string, changed: string): StepInput => ({
    kind: "hook",
    lesson: by("hooks"),
    title: `afterToolCall 改写了 ${call.name} 的结果`,
    detail: `${quote(result)}\n→ ${quote(changed)}`,
    note: "执行之后再过一道手：模型只看得到改过的这份，原始结果不进历史。",
  }),
};

// ── provider：请求、回答、事件流 ─────────────────────────
/** 第 n 次请求：带着什么输入；同一轮里的再一次请求，有没有快照说法不同。 */
function request(lesson: string, input: Input, how: "complete" | "stream", n: number, inTurn: number): StepInput {
  const lines = [`messages（${input.messages.length} 条）：`];
  for (const m of input.messages) lines.push(`  ${m.role}${m.toolCallId !== undefined ? `(${m.toolCallId})` : ""}: ${clip(m.content, 90)}`);
  if (input.tools !== undefined) lines.push(`tools：${input.tools.length === 0 ? "（空）" : input.tools.map((t) => t.name).join(", ")}`);
  if (input.systemPrompt !== undefined) {
    const prompt = input.systemPrompt.split("\n");
    lines.push(`systemPrompt（${prompt.length} 行）：`);
    for (const line of prompt) lines.push(`  ${clip(line, 90)}`);
  }
  const notes: string[] = [];
  if (how === "complete") notes.push("runOneTurn 把整段历史交给 provider.complete，等它一次性回一段话。");
  else notes.push("core 调 provider.stream(input)，回答会一个事件一个事件地流回来。");
  if (has(lesson, "toolLoop") && inTurn > 1) {
    notes.push(
      has(lesson, "snapshot")
        ? "同一轮里的又一次请求：本轮开头拍的快照，加上这一轮自己存下的消息（s06）。"
        : "同一轮里的又一次请求：刚存下的工具结果也在历史里，模型看得到它（每次都重新 buildProviderInput）。",
    );
  }
  if (input.systemPrompt !== undefined) notes.push("系统提示由项目资料拼成，和对话历史分开发（s08）。");
  return { kind: "request", lesson: how === "complete" ? by() : by("stream"), title: `第 ${n} 次请求：provider.${how}(input)`, detail: lines.join("\n"), note: notes.join("") };
}

const provider = {
  request,
  reply: (text: string): StepInput => ({
    kind: "reply",
    lesson: by(),
    title: "provider 回了一段话",
    detail: quote(text),
    note: "complete 一次交回整段文字；runOneTurn 把它包成一条 stopReason 为 stop 的助手消息。",
  }),
  thrown: (error: unknown, how: "complete" | "stream"): StepInput => ({
    kind: "throw",
    lesson: how === "complete" ? by() : by("stream"),
    title: "provider 抛错",
    detail: describeError(error),
    note:
      how === "complete"
        ? "异常不往外抛：runOneTurn 捕获它，写成一条 stopReason 为 error 的助手消息存下来（R4 ①）。"
        : "流在半路断了：已经收到的文字保留，后面接一行 error: …，这条消息的 stopReason 是 error（D6、R4 ①）。",
  }),
};

const END_NOTES: Record<string, string> = {
  toolUse: "以 toolUse 收尾：模型在等工具结果。先把这条回答存进历史，再按顺序执行刚才记下的调用。",
  stop: "以 stop 收尾：这就是这一轮的回答，循环到此为止。",
  error: "以 error 收尾：provider 自己说出错了。",
};

const stream = {
  start: (): StepInput => ({ kind: "stream", lesson: by("stream"), title: "流：message_start", detail: "message_start", note: "一条新消息开始了。" }),
  delta: (text: string): StepInput => ({ kind: "stream", lesson: by("stream"), title: "流：text_delta", detail: `text_delta ${quote(text)}`, note: "又一段文字，接在前面后面。" }),
  /** 接着 message_start 的一段段文字并进那一步：它的标题和说明。 */
  merged: (pieces: number): { title: string; note: string } => ({
    title: `流：message_start，文字分 ${pieces} 段到达`,
    note: "一条新消息开始了；文字一段一段送来，collectAssistantMessage 边收边拼。",
  }),
  deltaLine: (text: string): string => `\ntext_delta ${quote(text)}`,
  toolCall: (call: Call): StepInput => ({
    kind: "tool_call",
    lesson: by("toolLoop"),
    title: `流：tool_call ${call.name}`,
    detail: `id ${call.id}\n${callText(call)}`,
    note: "模型要调一个工具。recordToolCalls 先把它记下；只有这条回答以 toolUse 收尾，才会真的执行（D4）。",
  }),
  end: (stopReason: string): StepInput => ({
    kind: "message_end",
    lesson: stopReason === "toolUse" ? by("toolLoop") : by("stream"),
    title: `流：message_end（${stopReason}）`,
    detail: `message_end stopReason=${quote(stopReason)}`,
    note: END_NOTES[stopReason] ?? "消息结束。",
  }),
};

// ── 工具 ──────────────────────────────────────────────────
const tools = {
  register: (name: string, error: unknown): StepInput => ({
    kind: "register",
    lesson: by("tools"),
    title: error === undefined ? `登记工具 ${name}` : `登记工具 ${name} 失败`,
    detail: error === undefined ? `registry.register(${name})` : `registry.register(${name})\n抛出：${describeError(error)}`,
    note: error === undefined ? "登记进 registry；工具清单只从 registry 取，下一次请求模型就看得到它。" : "同名工具已经登记过：register 报错，registry 保持原样。",
  }),
  run: (call: Call, result: string): StepInput => {
    const failed = result.startsWith("error: ");
    const unknown = result.startsWith("error: unknown tool");
    return {
      kind: "tool",
      lesson: by("toolLoop"),
      title: failed ? `执行 ${call.name}：出错，写成结果` : `执行 ${call.name}`,
      detail: `${callText(call)}\n→ ${quote(result)}`,
      note: unknown
        ? "没有登记过这个工具：ToolRegistry.run 直接回一段 error 文字，没有任何 handler 被调用，也不抛错（R4 ②）。"
        : failed
          ? "出错不往外抛：ToolRegistry.run 把它写成 error: 开头的结果，交回模型，由模型决定下一步（R4 ②）。"
          : "ToolRegistry.run 校验参数、执行 handler，结果是一段文字。",
    };
  },
};

// ── 历史：存下的消息、会话树、一轮的结束 ─────────────────
/** 一条存下的助手消息或工具结果：按它是什么说一句，存进会话树的再补一句。 */
function storedNote(msg: Msg, inTree: boolean): { part: Feature | undefined; note: string } {
  const base = inTree ? ("sessionTree" as const) : undefined;
  if (msg.role === "toolResult") return { part: inTree ? "sessionTree" : "toolLoop", note: `工具结果作为一条消息存下，toolCallId ${msg.toolCallId ?? ""} 对回那次调用；下一次请求模型就能看到它。` };
  if (msg.content === "max turns reached") return { part: "toolLoop", note: "问满 maxTurns 次还没停：存一条 max turns reached（stopReason 为 stop），循环一定会停（R5）。" };
  if (msg.stopReason === "toolUse") return { part: inTree ? "sessionTree" : "toolLoop", note: "这条回答先存进历史（stopReason 为 toolUse），它要的工具结果按调用顺序跟在后面（D4）。" };
  if (msg.stopReason === "error") return { part: base, note: "出错也只是一条消息：stopReason 为 error，存进历史，不往外抛（R4 ①）。" };
  return { part: base, note: "回答连同它的 stopReason 存进历史（R1：stopReason 永远跟着助手消息）。" };
}

function stored(msg: Msg, entry: { id: string; parentId: string | null } | undefined): StepInput {
  const e: ReplayEntry = { role: msg.role, content: msg.content };
  if (entry !== undefined) {
    e.id = entry.id;
    e.parentId = entry.parentId;
  }
  if (msg.stopReason !== undefined) e.stopReason = msg.stopReason;
  if (msg.toolCallId !== undefined) e.toolCallId = msg.toolCallId;
  const inTree = entry !== undefined;
  const where = entry === undefined ? "存进历史" : `存进会话树 ${entry.id}${entry.parentId === null ? "（根）" : `（挂在 ${entry.parentId} 下）`}`;
  const treeNote = inTree ? "每条消息都是树上的一个节点，带 id 和 parentId；新节点成为叶子（s07）。" : "";
  if (msg.role === "user") {
    return { kind: "user", lesson: by(inTree ? "sessionTree" : undefined), title: `用户：${clip(msg.content, 60)}`, detail: `${where}\nuser: ${msg.content}`, note: `先把用户说的话存下来，再去问模型。${treeNote}`, entry: e };
  }
  const { part, note } = storedNote(msg, inTree);
  return {
    kind: "stored",
    lesson: by(part),
    title: `${where}：${msg.role}${msg.stopReason !== undefined ? `（${msg.stopReason}）` : ""}`,
    detail: `${msg.role}${msg.toolCallId !== undefined ? `(${msg.toolCallId})` : ""}${msg.stopReason !== undefined ? `[${msg.stopReason}]` : ""}: ${msg.content}`,
    note: `${note}${treeNote}`,
    entry: e,
  };
}

const history = {
  stored,
  moveTo: (id: string, error: unknown): StepInput => ({
    kind: "tree",
    lesson: by("sessionTree"),
    title: error === undefined ? `moveTo ${id}` : `moveTo ${id} 失败`,
    detail: error === undefined ? `叶子 → ${id}` : `抛出：${describeError(error)}`,
    note:
      error === undefined
        ? `叶子移到 ${id}：下一条消息挂在它下面，另起一支；原来那支一条不丢，只是不在当前路径上，不再发给模型。`
        : "没有这个节点：moveTo 报错，树保持原样。",
    ...(error === undefined ? { leaf: id } : {}),
  }),
  turnEnd: (how: "runOneTurn" | "runEventedToolLoop", reply: Msg): StepInput => ({
    kind: "return",
    lesson: how === "runOneTurn" ? by() : by("toolLoop"),
    title: `${how} 返回`,
    detail: `${reply.role}[${reply.stopReason ?? "-"}]: ${reply.content}`,
    note: how === "runOneTurn" ? "这一轮结束，返回最后一条助手消息。" : "循环结束，返回最后一条助手消息。",
  }),
  /** 不经过 runOneTurn、直接跑循环时，刚存下的那条用户消息的说明。 */
  loopUserNote: (maxTurns: number): string => `这次不经过 runOneTurn：先存下用户消息，再直接调 runEventedToolLoop(agent, ${maxTurns})，上限只有 ${maxTurns} 次。`,
};

// ── 扩展、命令、包 ────────────────────────────────────────
const runtime = {
  extension: (name: string, registered: string[], errors: string[]): StepInput => ({
    kind: "extension",
    lesson: by("extensions"),
    title: errors.length > 0 ? `use(${name})：装载失败` : `use(${name})`,
    detail: [registered.length > 0 ? `登记工具：${registered.join(", ")}` : "没有登记工具", ...errors].join("\n"),
    note:
      errors.length > 0
        ? "扩展装到一半抛错：它登记的东西一样都不留，错误记进 runtime.errors，不往外抛（D10）。"
        : "扩展登记的工具进的是同一个 registry，和内置工具走同一条执行链，钩子照样管得到它。",
  }),
  event: (lesson: string, event: RuntimeEventLike): StepInput => ({
    kind: "event",
    lesson: by("extensions"),
    title: `广播事件：${event.type}`,
    detail: event.type === "message" ? `{ type: "message", content: ${quote(clip(event.content, 100))} }` : `{ type: "done" }`,
    note:
      event.type === "message"
        ? "循环每存下一条消息就广播一次 message 事件，扩展的处理函数都会收到（D11）。"
        : has(lesson, "modes")
          ? "这一轮结束，广播 done；随后运行模式把这一轮的事件一次呈现出来（s10）。"
          : "这一轮结束，广播 done。",
  }),
  command: (name: string, result: string): StepInput => ({
    kind: "command",
    lesson: by("extensions"),
    title: `命令 /${name}`,
    detail: `→ ${quote(result)}`,
    note: result.startsWith("error: ") ? "没有这个命令，或者命令出了错：结果写成 error: …，不抛错。" : "命令由扩展登记，直接返回文字，不经过模型。",
  }),
  pkg: (name: string, registered: string[], error: unknown): StepInput => ({
    kind: "package",
    lesson: by("packages"),
    title: error === undefined ? `装包 ${name}` : `装包 ${name}：整包拒绝`,
    detail: error === undefined ? `登记工具：${registered.join(", ") || "无"}` : `抛出：${describeError(error)}`,
    note: error === undefined ? "先查完包名、工具名、命令名有没有撞上，再通过一个扩展登记工具和命令；包里的资料叠成一层 PackageResourceLoader，放在原来的 loader 上面。装包时一份资料都不读，每轮开头用同一个信任一层层地问（D40）。" : "有冲突或缺件：整包拒绝，什么都没装上。",
  }),
};

// ── 一段演示的开头 ────────────────────────────────────────
/** 这段演示开头装好的零件，一行一个：这一课有的零件才写。 */
function setupLines(mod: LessonModule, lesson: string, scenario: Scenario): string[] {
  const lines = ["provider：课里的假模型 createFakeProvider()，按问题照剧本回答"];
  if (has(lesson, "tools")) {
    const names = (scenario.tools ?? []).map((t) => (typeof t === "string" ? t : t.name));
    lines.push(`工具：${names.length > 0 ? names.join(", ") : "（一个也没登记）"}`);
  }
  if (scenario.hooks?.gate === true) lines.push("钩子：createPermissionGate()——拦下删除，给结果里的密钥打码");
  else if (has(lesson, "hooks")) lines.push("钩子：无");
  if (scenario.resources !== undefined) {
    const resources = scenario.resources === "demo" ? mod.createDemoResources() : scenario.resources;
    lines.push(`项目资料：${resources.length > 0 ? resources.map((r) => `${r.name}（${r.kind}）`).join(", ") : "（没有）"}`);
  }
  if (has(lesson, "trust")) lines.push(`信任：${scenario.trust ?? "trusted"}`);
  if (has(lesson, "modes")) lines.push(`运行模式：${scenario.mode === "json" ? "JsonMode" : "PrintMode"}`);
  lines.push(`历史：${has(lesson, "sessionTree") ? "会话树 SessionTree" : "消息数组"}`);
  return lines;
}

const scene = {
  setupLines,
  start: (lesson: string, scenario: Scenario, setup: string[]): StepInput => ({
    kind: "scene",
    lesson: by(),
    title: `演示：${scenario.about}`,
    detail: setup.join("\n"),
    note: `和 npm run ${lesson} 里 main() 做的事一样（场景 ${scenario.id}，tooling/scenarios/data.ts）。一步一步往下点，看每一步是哪个零件在干活。`,
  }),
};

/** 整张表：每种步骤怎么写。 */
export const NARRATION = { scene, hook, provider, stream, tools, history, runtime };
