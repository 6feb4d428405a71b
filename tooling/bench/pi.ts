// 和真实 Pi 对照时 Pi 的那一侧：同样三种工作量，交给 @earendil-works/pi-agent-core 1.6.0 的 runAgentLoop。
// 模型换成照 SCRIPT 出事件的 streamFn（建在 pi-ai 的 createAssistantMessageEventStream 上，做法和 fidelity/pi.ts 一样），
// 工具是和 mini 一侧做同样事情的 echo，订阅者只数一数事件，其余全用 Pi 的默认值（所以调用是并行执行的）。
// Pi 装在 fidelity/node_modules 里（npm ci --prefix fidelity），不是课程自己的依赖；这里按路径加载它，
// 只写用得到的那点形状，没装也能通过类型检查，loadPi 回一句怎么装。
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../course.ts";
import { type ComparedRun, SCRIPT, type Side } from "./workloads.ts";

export const PI_VERSION = "1.6.0";
export const PI_INSTALL = "npm ci --prefix fidelity --no-audit --no-fund --ignore-scripts";

// ── 用得到的 Pi 形状（和 pi-ai / pi-agent-core 的类型兼容，但不引用它们） ──
type TextBlock = { type: "text"; text: string };
type ToolCallBlock = { type: "toolCall"; id: string; name: string; arguments: Record<string, string> };
type Block = TextBlock | ToolCallBlock;
type StopReason = "stop" | "toolUse";
type AssistantMessage = {
  role: "assistant";
  content: Block[];
  api: string;
  provider: string;
  model: string;
  usage: typeof NO_USAGE;
  stopReason: StopReason | "pending";
  timestamp: number;
};
type PiMessage = { role: "system" } | { role: "user"; content: string | Block[]; timestamp: number } | AssistantMessage | { role: "toolResult"; content: Block[] };
type StreamEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start" | "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCallBlock; partial: AssistantMessage }
  | { type: "done"; reason: StopReason; message: AssistantMessage };
type EventStream = { push(event: StreamEvent): void };
type Tool = {
  name: string;
  label: string;
  description: string;
  parameters: object;
  execute(toolCallId: string, params: Record<string, string>): Promise<{ content: TextBlock[]; details: object }>;
};
type RunAgentLoop = (
  prompts: PiMessage[],
  context: { messages: PiMessage[]; tools: Tool[] },
  config: { model: typeof MODEL; convertToLlm(messages: PiMessage[]): PiMessage[] },
  emit: (event: unknown) => void,
  signal: undefined,
  streamFn: (model: unknown, context: unknown) => EventStream,
) => Promise<PiMessage[]>;
type Pi = { runAgentLoop: RunAgentLoop; createAssistantMessageEventStream(): EventStream };

const MODEL = {
  id: "scripted",
  name: "scripted model",
  api: "openai-completions",
  provider: "bench",
  baseUrl: "http://127.0.0.1:9",
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  reasoning: false,
  contextWindow: 100_000,
  maxTokens: 4_096,
};
const NO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** 一个包在 fidelity/node_modules 里的 ESM 入口：照它 package.json 的 exports["."].import。 */
function entryOf(pkg: string): string | undefined {
  const manifest = join(ROOT, "fidelity", "node_modules", pkg, "package.json");
  if (!existsSync(manifest)) return undefined;
  const json: { version?: string; exports?: { ".": { import?: string } } } = JSON.parse(readFileSync(manifest, "utf8"));
  const entry = json.exports?.["."]?.import;
  if (json.version !== PI_VERSION || entry === undefined) return undefined;
  return pathToFileURL(join(dirname(manifest), entry)).href;
}

/** 加载 Pi。没装（或装的不是 1.6.0）时回一句原因和安装命令。 */
export async function loadPi(): Promise<{ side: Side } | { missing: string }> {
  const core = entryOf("@earendil-works/pi-agent-core");
  const ai = entryOf("@earendil-works/pi-ai");
  if (core === undefined || ai === undefined) {
    return { missing: `Pi ${PI_VERSION} is not installed in fidelity/node_modules; install it with \`${PI_INSTALL}\`` };
  }
  const [{ runAgentLoop }, { createAssistantMessageEventStream }] = (await Promise.all([import(core), import(ai)])) as [Pick<Pi, "runAgentLoop">, Pick<Pi, "createAssistantMessageEventStream">];
  return { side: piSide({ runAgentLoop, createAssistantMessageEventStream }) };
}

/** 一次回答：要么一段文字（拆成一个个增量），要么一串调用。 */
type Reply = { deltas: string[] } | { calls: number[] };

const blockText = (content: string | Block[]): string => (typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join(""));

function assistantMessage(content: Block[], stopReason: AssistantMessage["stopReason"]): AssistantMessage {
  return { role: "assistant", content, api: MODEL.api, provider: MODEL.provider, model: MODEL.id, usage: NO_USAGE, stopReason, timestamp: Date.now() };
}

/** 照真实 provider 的做法出事件：partial 是同一个对象，边收边往里添；文字块的 text 随每个增量变长。 */
function replyStream(pi: Pi, reply: Reply): EventStream {
  const out = pi.createAssistantMessageEventStream();
  const content: Block[] = [];
  const partial = assistantMessage(content, "pending");
  out.push({ type: "start", partial });
  if ("deltas" in reply) {
    const block: TextBlock = { type: "text", text: "" };
    const contentIndex = content.push(block) - 1;
    out.push({ type: "text_start", contentIndex, partial });
    for (const delta of reply.deltas) {
      block.text += delta;
      out.push({ type: "text_delta", contentIndex, delta, partial });
    }
    out.push({ type: "text_end", contentIndex, content: block.text, partial });
  } else {
    for (const i of reply.calls) {
      const toolCall: ToolCallBlock = { type: "toolCall", id: SCRIPT.callId(i), name: SCRIPT.tool, arguments: { text: SCRIPT.arg(i) } };
      const contentIndex = content.push(toolCall) - 1;
      out.push({ type: "toolcall_start", contentIndex, partial });
      out.push({ type: "toolcall_end", contentIndex, toolCall, partial });
    }
  }
  const stopReason: StopReason = "calls" in reply ? "toolUse" : "stop";
  out.push({ type: "done", reason: stopReason, message: assistantMessage([...content], stopReason) });
  return out;
}

/** 一次运行：第 k 次请求回 respond(k)。 */
function runWith(pi: Pi, respond: (k: number) => Reply): ComparedRun {
  return async () => {
    // 每次运行都新建工具（连同它的 JSON schema），和 mini 一侧每次新建 registry 对等：两边都为这一轮编译一次校验器。
    const echo: Tool = {
      name: SCRIPT.tool,
      label: SCRIPT.tool,
      description: `${SCRIPT.tool} tool`,
      parameters: { type: "object", properties: { text: { type: "string", description: "text" } }, required: ["text"], additionalProperties: false },
      execute: async (_id, params) => ({ content: [{ type: "text", text: SCRIPT.echo(params.text) }], details: {} }),
    };
    let k = 0;
    let events = 0;
    const messages = await pi.runAgentLoop(
      [{ role: "user", content: SCRIPT.prompt, timestamp: Date.now() }],
      { messages: [], tools: [echo] },
      { model: MODEL, convertToLlm: (m) => m },
      () => void events++,
      undefined,
      () => replyStream(pi, respond(k++)),
    );
    // Pi 在第一条用户消息前插一条 system 消息，声明这次有哪些工具（课程没有这种消息）；记录里略过它。
    const transcript = (): string[] => messages.flatMap((m) => (m.role === "system" ? [] : [`${m.role}:${blockText(m.content)}`]));
    return { transcript, events };
  };
}

function piSide(pi: Pi): Side {
  const done: Reply = { deltas: [SCRIPT.done] };
  return {
    deltas: (n) => runWith(pi, () => ({ deltas: Array.from({ length: n }, () => SCRIPT.delta) })),
    callsInOneResponse: (n) => runWith(pi, (k) => (k === 0 ? { calls: Array.from({ length: n }, (_, i) => i) } : done)),
    oneCallPerResponse: (n) => runWith(pi, (k) => (k < n ? { calls: [k] } : done)),
  };
}
