// tests/live/ 的共用零件：回放服务器上的 provider、完整一轮（runLive）、字节任意切开的比较、临时工作目录，
// 还有一只手拨的假表（HandClock），测超时不用真等。
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";
import type { ClockTimers } from "../../live/clock.ts";
import { ENV } from "../../live/config.ts";
import { type LiveIO, runLive } from "../../live/main.ts";
import { OpenAICompatibleProvider } from "../../live/openai.ts";
import { DONE, type Pause, type ServerReply, type ReplayServer, event, finishChunk, splitAt, startReplayServer, textChunk, toolChunk } from "./replay-server.ts";
import { type AssistantMessage, type ProviderEvent, type ProviderInput, type ToolCall, collectAssistantMessage, recordToolCalls } from "../../s12_packages/code.ts";

export const KEY = "sk-test-SECRET-4f9c";
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const INPUT: ProviderInput = { systemPrompt: "你是测试助手。", messages: [{ role: "user", content: "你好" }], tools: [] };

export async function withServer<T>(script: (n: number) => ServerReply, body: (server: ReplayServer) => Promise<T>): Promise<T> {
  const server = await startReplayServer((_request, n) => script(n));
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

/** 空闲超时不给就是 30 秒：测的不是超时的地方，机器再忙也别让它插一脚。 */
export function providerFor(server: ReplayServer, extra: { apiKey?: string; timeoutMs?: number; signal?: AbortSignal; timers?: ClockTimers } = {}): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    baseUrl: server.baseUrl,
    apiKey: "apiKey" in extra ? extra.apiKey : KEY,
    model: "test-model",
    timeoutMs: extra.timeoutMs ?? 30_000,
    signal: extra.signal,
    timers: extra.timers,
  });
}

/** 照 s12 的循环那样收一段回答：拼成助手消息，另外记下工具调用。这就是用户和历史里看到的样子。 */
export async function answer(provider: OpenAICompatibleProvider, input: ProviderInput = INPUT): Promise<{ message: AssistantMessage; calls: ToolCall[] }> {
  const calls: ToolCall[] = [];
  const message = await collectAssistantMessage(recordToolCalls(provider.stream(input), calls));
  return { message, calls };
}

/** 全部事件；流抛错就在末尾记一个 throw。 */
export async function allEvents(provider: OpenAICompatibleProvider, input: ProviderInput = INPUT): Promise<Array<ProviderEvent | { type: "throw"; message: string }>> {
  const events: Array<ProviderEvent | { type: "throw"; message: string }> = [];
  try {
    for await (const e of provider.stream(input)) events.push(e);
  } catch (error) {
    events.push({ type: "throw", message: error instanceof Error ? error.message : String(error) });
  }
  return events;
}

/** 一段回复的全部字节（中间的停顿不算）。 */
export function concatBytes(chunks: ServerReply["chunks"]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks.flatMap((c) => (typeof c === "string" ? [Buffer.from(c, "utf8")] : c instanceof Uint8Array ? [c] : []))));
}

/** 必切的点：第一个多字节字符的第 2、3 个字节之前；每一行 data: / error: 的字段名中间和值中间。 */
export function forcedCuts(bytes: Uint8Array): number[] {
  const lead = bytes.findIndex((b) => b >= 0xc0);
  const text = Buffer.from(bytes).toString("latin1"); // 一个字节一个字符：下标就是字节位置
  const fields = [...text.matchAll(/(?:^|\n)((?:data|error):)/g)].map((m) => m.index + m[0].length - m[1].length);
  return [lead + 1, lead + 2, ...fields.flatMap((at) => [at + 2, at + 8])];
}

/**
 * 同一段字节整块送一次、在必切点切开送一次、再任意切开送 numRuns 次（fast-check）：每次 observe 看到的都得和整块时一样。
 * 返回整块时看到的，调用方再检查它本身对不对。
 */
export async function sameUnderSplits<T>(bytes: Uint8Array, observe: (chunks: Uint8Array[]) => Promise<T>, numRuns = 20): Promise<T> {
  const whole = await observe([bytes]);
  const check = async (cuts: number[]): Promise<void> => {
    expect(await observe(splitAt(bytes, cuts)), `cut at ${JSON.stringify([...new Set(cuts)].sort((a, b) => a - b))}`).toEqual(whole);
  };
  await check(forcedCuts(bytes));
  await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { minLength: 1, maxLength: 12 }), check), { numRuns });
  return whole;
}

/** 两个工具调用的回答：参数拆在好几块里，文字里有中文和 emoji。 */
export const TOOL_ANSWER = [
  event({ choices: [{ index: 0, delta: { role: "assistant", content: "" } }] }),
  ": keep-alive\n\n",
  event(textChunk("我先看一下 README🙂，")),
  `data: ${JSON.stringify(textChunk("再列目录。"))}\r\n\r\n`,
  event(toolChunk(0, { id: "call_a", name: "read", arguments: '{"pa' })),
  event(toolChunk(0, { arguments: 'th": "REA' })),
  event(toolChunk(0, { arguments: 'DME.md"}' })),
  event(toolChunk(1, { id: "call_b", name: "ls", arguments: "" })),
  event(toolChunk(1, { arguments: '{"path":' })),
  event(toolChunk(1, { arguments: ' "."}' })),
  event(finishChunk("tool_calls")),
  DONE,
].join("");

export const TOOL_EVENTS: ProviderEvent[] = [
  { type: "message_start" },
  { type: "text_delta", text: "我先看一下 README🙂，" },
  { type: "text_delta", text: "再列目录。" },
  { type: "tool_call", call: { id: "call_a", name: "read", input: { path: "README.md" } } },
  { type: "tool_call", call: { id: "call_b", name: "ls", input: { path: "." } } },
  { type: "message_end", stopReason: "toolUse" },
];

// ── 工作目录 ──────────────────────────────────────────────
/** 这个测试文件的工作目录；useWorkspace() 在 beforeAll 里建好。 */
export const workspace = { base: "", work: "" };

/**
 * 在调用它的测试文件里登记：beforeAll 建一个临时工作目录（几个文本文件、隐藏文件、node_modules、二进制、
 * 指进指出的符号链接），afterAll 删掉。liveIO 和 runAgainst 默认在这里跑。
 */
export function useWorkspace(): void {
  beforeAll(() => {
    const base = mkdtempSync(join(tmpdir(), "mini-pi-live-"));
    const work = join(base, "project");
    Object.assign(workspace, { base, work });
    const outside = join(base, "outside");
    mkdirSync(join(work, "src"), { recursive: true });
    mkdirSync(join(work, ".git"));
    mkdirSync(join(work, "node_modules", "dep"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "outside TODO secret");
    writeFileSync(join(work, "README.md"), "# demo\n一个示例项目。TODO: 写文档\n");
    writeFileSync(join(work, "src", "main.ts"), "export const x = 1; // todo later\n// TODO: more\n");
    writeFileSync(join(work, "src", "empty.ts"), "");
    writeFileSync(join(work, ".env"), `API_KEY=${KEY} TODO`);
    writeFileSync(join(work, ".git", "config"), "[core] TODO");
    writeFileSync(join(work, "node_modules", "dep", "index.js"), "// TODO in a dependency");
    writeFileSync(join(work, "big.txt"), `TODO ${"x".repeat(2000)}`);
    writeFileSync(join(work, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x54, 0x4f, 0x44, 0x4f]));
    writeFileSync(join(work, "latin1.txt"), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0x20, 0xe9, 0x74, 0xe9]));
    symlinkSync(join(outside, "secret.txt"), join(work, "link-out.txt"));
    symlinkSync(outside, join(work, "link-out-dir"));
    symlinkSync(join(work, ".env"), join(work, "env-link"));
    symlinkSync(join(work, "src", "main.ts"), join(work, "link-in.ts"));
    symlinkSync(join(work, "missing.txt"), join(work, "broken-link"));
  });
  afterAll(() => rmSync(workspace.base, { recursive: true, force: true }));
}

// ── 走完整的 s12 链 ───────────────────────────────────────
/** 假终端：stdout 记下每次 write 的片段（stdout() 连起来看），stderr 记下每一行。 */
export function liveIO(env: Record<string, string | undefined>, extra: Partial<LiveIO> = {}): LiveIO & { out: string[]; err: string[]; stdout_: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { stdout: { write: (t) => out.push(t) }, stderr: { log: (l) => err.push(l) }, env, cwd: workspace.work, out, err, stdout_: () => out.join(""), ...extra };
}

export type LiveRun = { code: number; stdout: string; stderr: string[]; bodies: string[] };

/**
 * 起一个回放服务器，用 runLive 问一个问题，交出用户和服务器各看到了什么：退出码、stdout、stderr 的每一行、每个请求的正文。
 * 服务器地址（端口每次不同）在 stderr 里换成 <server>，好让两次运行能直接比。
 * options.timers 换掉请求的表（假表）；options.onStdout 在回答的每一段上 stdout 时叫一声。
 */
export async function runAgainst(script: (n: number) => ServerReply, env: Record<string, string> = {}, options: { cwd?: string; args?: string[]; timers?: ClockTimers; onStdout?: (text: string) => void } = {}): Promise<LiveRun> {
  return withServer(script, async (server) => {
    const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model", ...env }, {
      cwd: options.cwd ?? workspace.work,
      timers: options.timers,
    });
    const { write } = io.stdout;
    io.stdout = {
      write: (text) => {
        write(text);
        options.onStdout?.(text);
      },
    };
    const code = await runLive(options.args ?? ["这个项目是做什么的？"], io);
    return {
      code,
      stdout: io.stdout_(),
      stderr: io.err.map((line) => line.split(server.baseUrl).join("<server>")),
      bodies: server.requests.map((r) => JSON.stringify(r.body)),
    };
  });
}

/** 一段只要一个工具调用的回答。 */
export const callAnswer = (name: string, args: string, id = "call_1", lead = ""): string =>
  [...(lead === "" ? [] : [event(textChunk(lead))]), event(toolChunk(0, { id, name, arguments: args })), event(finishChunk("tool_calls")), DONE].join("");

// ── 手拨的假表 ────────────────────────────────────────────
/**
 * 手拨的假表（ClockTimers）：时间只在 advance 时往前走，途中到点的表按先后响。「停了两倍超时那么久」「稳稳吐了好几倍超时」
 * 都不用真等，机器再忙，超时响不响也只看拨了多少。
 * 它还数上弦的次数：provider 每收到一块字节就把空闲表重上一次弦，回放服务器的停顿（gap）拿它判断客户端收到了东西。
 */
export class HandClock implements ClockTimers {
  /** 假时间，毫秒。 */
  now = 0;
  private readonly pending = new Map<number, { due: number; callback: () => void }>();
  private nextId = 1;
  private armed = 0;
  private armedAtAdvance = 0;

  setTimeout(callback: () => void, ms: number): number {
    const id = this.nextId++;
    this.pending.set(id, { due: this.now + ms, callback });
    this.armed++;
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** 时间往前拨 ms（含终点：正好到点的表也响）。 */
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      let first: [number, { due: number; callback: () => void }] | undefined;
      for (const entry of this.pending) if (entry[1].due <= target && (first === undefined || entry[1].due < first[1].due)) first = entry;
      if (first === undefined) break;
      this.pending.delete(first[0]);
      this.now = first[1].due;
      first[1].callback();
    }
    this.now = target;
    this.armedAtAdvance = this.armed;
  }

  /**
   * 回放服务器两块之间的停顿：等客户端收到刚写出的字节（自上次拨表以来重上过弦），再把表拨过 ms。
   * 客户端和服务器在同一个进程里，本机的字节一两圈事件循环就到；等了 PATIENCE 圈还没动静（比如 provider 收到字节却没重上弦），
   * 就不等了照样拨，让测试在断言上失败，而不是两边互等到测试超时。客户端偶尔落后一两块也没关系（开头构造和响应头也各上一次弦），
   * 所以 ms 要比空闲超时小得多；真正要紧的那次停顿，测试自己等到看见文字再拨。
   */
  gap(ms: number): Pause {
    return {
      until: async () => {
        for (let turn = 0; this.armed === this.armedAtAdvance && turn < HandClock.PATIENCE; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
        this.advance(ms);
      },
    };
  }

  /** gap 最多等几圈事件循环。 */
  static readonly PATIENCE = 100;
}

/** 收到第一段文字之后，服务器那边再没动静：把假表拨过 ms。流照常往下交。 */
export async function* silentAfterFirstText(events: AsyncIterable<ProviderEvent>, clock: HandClock, ms: number): AsyncGenerator<ProviderEvent> {
  let moved = false;
  for await (const e of events) {
    yield e;
    if (!moved && e.type === "text_delta") {
      moved = true;
      clock.advance(ms);
    }
  }
}
