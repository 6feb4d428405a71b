// 真实模型模式（live/）的测试：全部离线。模型由一个只听 127.0.0.1 的本地服务器扮演，
// 它回放录好样子的 SSE 回答，字节可以在任意位置切开（包括一个 UTF-8 字符中间、"data:" 中间）。
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULTS, ENV, type LiveConfig, readLiveConfig } from "../live/config.ts";
import { EXIT, USAGE, configHelp, createLiveAgent, maxTurnsMessage, runLive, type LiveIO } from "../live/main.ts";
import {
  ERROR_TEXT_CHARS,
  EXCERPT_CHARS,
  OpenAICompatibleProvider,
  excerpt,
  serverErrorText,
  toChatMessages,
  toChatTools,
  type ChatMessage,
  type ChatToolCall,
  type RememberedCall,
} from "../live/openai.ts";
import { MIN_FRAGMENT, SecretMask, maskSecret, maskThenShorten } from "../live/redact.ts";
import { DONE, type Reply, type ReplayServer, event, finishChunk, reasoningChunk, splitAt, startReplayServer, textAnswer, textChunk, toolChunk } from "../live/replay.ts";
import { type SseMessage, SseDecoder } from "../live/sse.ts";
import { createWorkspaceTools } from "../live/tools.ts";
import {
  type Agent,
  type AssistantMessage,
  PrintMode,
  type ProviderEvent,
  type ProviderInput,
  DEFAULT_MAX_TURNS,
  type ToolCall,
  ToolRegistry,
  collectAssistantMessage,
  recordToolCalls,
  runOneTurn,
} from "../s12_packages/code.ts";

const KEY = "sk-test-SECRET-4f9c";
const ROOT = join(import.meta.dirname, "..");
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const INPUT: ProviderInput = { systemPrompt: "你是测试助手。", messages: [{ role: "user", content: "你好" }], tools: [] };

async function withServer<T>(script: (n: number) => Reply, body: (server: ReplayServer) => Promise<T>): Promise<T> {
  const server = await startReplayServer((_request, n) => script(n));
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

function providerFor(server: ReplayServer, extra: { apiKey?: string; timeoutMs?: number; signal?: AbortSignal } = {}): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({ baseUrl: server.baseUrl, apiKey: "apiKey" in extra ? extra.apiKey : KEY, model: "test-model", timeoutMs: extra.timeoutMs ?? 2000, signal: extra.signal });
}

/** 照 s12 的循环那样收一段回答：拼成助手消息，另外记下工具调用。这就是用户和历史里看到的样子。 */
async function answer(provider: OpenAICompatibleProvider, input: ProviderInput = INPUT): Promise<{ message: AssistantMessage; calls: ToolCall[] }> {
  const calls: ToolCall[] = [];
  const message = await collectAssistantMessage(recordToolCalls(provider.stream(input), calls));
  return { message, calls };
}

/** 全部事件；流抛错就在末尾记一个 throw。 */
async function allEvents(provider: OpenAICompatibleProvider, input: ProviderInput = INPUT): Promise<Array<ProviderEvent | { type: "throw"; message: string }>> {
  const events: Array<ProviderEvent | { type: "throw"; message: string }> = [];
  try {
    for await (const e of provider.stream(input)) events.push(e);
  } catch (error) {
    events.push({ type: "throw", message: error instanceof Error ? error.message : String(error) });
  }
  return events;
}

/** 一段回复的全部字节（中间的停顿不算）。 */
function concatBytes(chunks: Reply["chunks"]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks.flatMap((c) => (typeof c === "string" ? [Buffer.from(c, "utf8")] : c instanceof Uint8Array ? [c] : []))));
}

/** 必切的点：第一个多字节字符的第 2、3 个字节之前；每一行 data: / error: 的字段名中间和值中间。 */
function forcedCuts(bytes: Uint8Array): number[] {
  const lead = bytes.findIndex((b) => b >= 0xc0);
  const text = Buffer.from(bytes).toString("latin1"); // 一个字节一个字符：下标就是字节位置
  const fields = [...text.matchAll(/(?:^|\n)((?:data|error):)/g)].map((m) => m.index + m[0].length - m[1].length);
  return [lead + 1, lead + 2, ...fields.flatMap((at) => [at + 2, at + 8])];
}

/**
 * 同一段字节整块送一次、在必切点切开送一次、再任意切开送 numRuns 次（fast-check）：每次 observe 看到的都得和整块时一样。
 * 返回整块时看到的，调用方再检查它本身对不对。
 */
async function sameUnderSplits<T>(bytes: Uint8Array, observe: (chunks: Uint8Array[]) => Promise<T>, numRuns = 20): Promise<T> {
  const whole = await observe([bytes]);
  const check = async (cuts: number[]): Promise<void> => {
    expect(await observe(splitAt(bytes, cuts)), `cut at ${JSON.stringify([...new Set(cuts)].sort((a, b) => a - b))}`).toEqual(whole);
  };
  await check(forcedCuts(bytes));
  await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { minLength: 1, maxLength: 12 }), check), { numRuns });
  return whole;
}

/** 两个工具调用的回答：参数拆在好几块里，文字里有中文和 emoji。 */
const TOOL_ANSWER = [
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

const TOOL_EVENTS: ProviderEvent[] = [
  { type: "message_start" },
  { type: "text_delta", text: "我先看一下 README🙂，" },
  { type: "text_delta", text: "再列目录。" },
  { type: "tool_call", call: { id: "call_a", name: "read", input: { path: "README.md" } } },
  { type: "tool_call", call: { id: "call_b", name: "ls", input: { path: "." } } },
  { type: "message_end", stopReason: "toolUse" },
];

// ── SSE 解码 ─────────────────────────────────────────────
describe("SseDecoder：字节在哪里切开都解出同样的事件", () => {
  const BODY = [
    "data: 你好🙂\r\n\r\n",
    ": comment\n",
    "event: ping\ndata: x\n\n",
    "data: a\ndata: b\n\n",
    "data:no-space\r\r",
    "id: 7\nretry: 10\ndata: {\"k\": \"é\"}\n\n",
    "error: {\"message\":\"boom\"}\n\n",
  ].join("");
  const EXPECTED: SseMessage[] = [
    { event: "message", data: "你好🙂" },
    { event: "ping", data: "x" },
    { event: "message", data: "a\nb" },
    { event: "message", data: "no-space" },
    { event: "message", data: '{"k": "é"}' },
    { event: "error", data: '{"message":"boom"}' },
  ];
  const decode = (parts: Uint8Array[]): SseMessage[] => {
    const decoder = new SseDecoder();
    return [...parts.flatMap((p) => decoder.push(p)), ...decoder.end()];
  };
  const bytes = utf8(BODY);

  it("整段解码", () => {
    expect(decode([bytes])).toEqual(EXPECTED);
  });

  it("切在 UTF-8 字符中间、data: 中间、\\r 和 \\n 之间", () => {
    const emoji = BODY.indexOf("🙂");
    const at = utf8(BODY.slice(0, emoji)).length;
    const data = utf8(BODY.slice(0, BODY.indexOf("data: a"))).length;
    const crlf = utf8(BODY.slice(0, BODY.indexOf("\r\n"))).length + 1;
    expect(decode(splitAt(bytes, [1, 2, at + 1, at + 2, at + 3, crlf, data + 2, data + 4]))).toEqual(EXPECTED);
    expect(decode([...bytes].map((b) => Uint8Array.of(b)))).toEqual(EXPECTED); // 一个字节一块
  });

  it("任意切点（fast-check）", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 20 }), (cuts) => {
        expect(decode(splitAt(bytes, cuts))).toEqual(EXPECTED);
      }),
      { numRuns: 300 },
    );
  });

  it("流结束时：最后一行完整、只差空行的事件照常派发；断在一行中间的丢掉", () => {
    expect(decode([utf8('data: {"a":1}\ndata: [DONE]\n')])).toEqual([{ event: "message", data: '{"a":1}\n[DONE]' }]);
    expect(decode([utf8("data: [DONE]\n\ndata: {\"a\":")])).toEqual([{ event: "message", data: "[DONE]" }]);
  });
});

// ── provider：收文字和工具调用 ────────────────────────────
describe("OpenAICompatibleProvider：发出去的请求、收回来的事件", () => {
  it("文字逐段成为 text_delta，finish_reason stop → message_end stop；请求带模型、系统提示、消息、工具和密钥", async () => {
    await withServer(
      () => ({ chunks: [textAnswer(["你好，", "我是", "mini Pi。"])] }),
      async (server) => {
        const tools = [{ name: "read", description: "读文件", input: { path: "文件路径" } }];
        const events = await allEvents(providerFor(server), { ...INPUT, tools });
        expect(events).toEqual([
          { type: "message_start" },
          { type: "text_delta", text: "你好，" },
          { type: "text_delta", text: "我是" },
          { type: "text_delta", text: "mini Pi。" },
          { type: "message_end", stopReason: "stop" },
        ]);
        const [request] = server.requests;
        expect(request.path).toBe("/v1/chat/completions");
        expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
        expect(request.body).toEqual({
          model: "test-model",
          stream: true,
          messages: [
            { role: "system", content: "你是测试助手。" },
            { role: "user", content: "你好" },
          ],
          tools: [
            {
              type: "function",
              function: {
                name: "read",
                description: "读文件",
                parameters: { type: "object", properties: { path: { type: "string", description: "文件路径" } }, required: ["path"], additionalProperties: false },
              },
            },
          ],
        });
      },
    );
  });

  it("没有密钥（本机服务器）就不发 Authorization；没有工具就不发 tools", async () => {
    await withServer(
      () => ({ chunks: [textAnswer(["ok"])] }),
      async (server) => {
        await answer(providerFor(server, { apiKey: undefined }));
        expect(server.requests[0].headers.authorization).toBeUndefined();
        expect(server.requests[0].body).not.toHaveProperty("tools");
      },
    );
  });

  it("两个工具调用，参数分好几块到达：按 index 拼好，依次成为 tool_call，以 toolUse 收尾", async () => {
    await withServer(
      () => ({ chunks: [TOOL_ANSWER] }),
      async (server) => {
        expect(await allEvents(providerFor(server))).toEqual(TOOL_EVENTS);
      },
    );
  });

  it("同一段回答被 HTTP 切成任意字节块（含 UTF-8 字符中间、data: 中间）送来，事件不变（fast-check）", async () => {
    const bytes = utf8(TOOL_ANSWER);
    const emoji = utf8(TOOL_ANSWER.slice(0, TOOL_ANSWER.indexOf("🙂"))).length;
    const data = utf8(TOOL_ANSWER.slice(0, TOOL_ANSWER.indexOf('data: {"choices":[{"index":0,"delta":{"tool_calls"'))).length;
    let cuts: number[] = [];
    await withServer(
      () => ({ chunks: splitAt(bytes, cuts) }),
      async (server) => {
        cuts = [emoji + 1, emoji + 2, emoji + 3, data + 1, data + 3, data + 5];
        expect(await allEvents(providerFor(server))).toEqual(TOOL_EVENTS);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { minLength: 1, maxLength: 12 }), async (chosen) => {
            cuts = chosen;
            expect(await allEvents(providerFor(server))).toEqual(TOOL_EVENTS);
          }),
          { numRuns: 25 },
        );
      },
    );
  });

  it("交错到达的调用、没有 index 只有 id 的调用、数字参数，都能拼对", async () => {
    const noIndex = (part: { id?: string; name?: string; arguments?: string }): unknown => {
      const chunk = toolChunk(0, part) as { choices: [{ delta: { tool_calls: [Record<string, unknown>] } }] };
      delete chunk.choices[0].delta.tool_calls[0].index;
      return chunk;
    };
    await withServer(
      (n) => ({
        chunks: [
          n === 0
            ? [
                event(toolChunk(1, { id: "c2", name: "ls", arguments: '{"path"' })),
                event(toolChunk(0, { id: "c1", name: "read", arguments: '{"path":' })),
                event(toolChunk(1, { arguments: ': "src"}' })),
                event(toolChunk(0, { arguments: ' "a.ts"}' })),
                event(finishChunk("tool_calls")),
                DONE,
              ].join("")
            : [
                event(noIndex({ id: "x1", name: "grep", arguments: '{"pattern": "TODO", ' })),
                event(noIndex({ arguments: '"path": ".", "n": 3, "all": true}' })),
                event(noIndex({ id: "x2", name: "ls", arguments: '{"path": "."}' })),
                event(finishChunk("stop")), // 有的服务器要了工具却写 stop
                DONE,
              ].join(""),
        ],
      }),
      async (server) => {
        const provider = providerFor(server);
        expect((await answer(provider)).calls).toEqual([
          { id: "c1", name: "read", input: { path: "a.ts" } },
          { id: "c2", name: "ls", input: { path: "src" } },
        ]);
        const second = await answer(provider);
        expect(second.message.stopReason).toBe("toolUse");
        expect(second.calls).toEqual([
          { id: "x1", name: "grep", input: { pattern: "TODO", path: ".", n: "3", all: "true" } },
          { id: "x2", name: "ls", input: { path: "." } },
        ]);
      },
    );
  });

  it('finish_reason "length" 和 content_filter：算 stop，文字末尾说明原因；finish_reason 到了但没有 [DONE] 也算完整', async () => {
    const replies = [
      textAnswer(["写到一半"], "length"),
      textAnswer(["不能说"], "content_filter"),
      [event(textChunk("完整的回答")), event(finishChunk("stop"))].join(""),
    ];
    await withServer(
      (n) => ({ chunks: [replies[n]] }),
      async (server) => {
        const provider = providerFor(server);
        expect((await answer(provider)).message).toEqual({
          role: "assistant",
          content: '写到一半\n[truncated: the answer hit the length limit (finish_reason "length")]',
          stopReason: "stop",
        });
        expect((await answer(provider)).message.content).toBe('不能说\n[stopped early: finish_reason "content_filter"]');
        expect((await answer(provider)).message).toEqual({ role: "assistant", content: "完整的回答", stopReason: "stop" });
      },
    );
  });
});

// ── 失败都变成消息 ────────────────────────────────────────
describe("R4：每种失败都变成一条 stopReason error 的助手消息，说清发生了什么，从不带出密钥", () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
    status,
    headers: { "content-type": "application/json", ...headers },
    chunks: [JSON.stringify(body)],
  });
  const cases: Array<[string, Reply, string]> = [
    [
      "HTTP 401（服务器回显了密钥）",
      json(401, { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" } }),
      "error: HTTP 401 Unauthorized: Incorrect API key provided: *** (check MINI_PI_API_KEY, and that this key may use MINI_PI_MODEL)",
    ],
    ["HTTP 403", json(403, { error: "model not allowed for this key" }), "error: HTTP 403 Forbidden: model not allowed for this key (check MINI_PI_API_KEY"],
    [
      "HTTP 429，带 Retry-After",
      json(429, { error: { message: "Rate limit reached for requests" } }, { "retry-after": "20" }),
      "error: HTTP 429 Too Many Requests: Rate limit reached for requests (rate limited or out of quota; try again in 20 s)",
    ],
    ["HTTP 500，纯文字正文", { status: 500, headers: { "content-type": "text/plain" }, chunks: ["upstream exploded\n"] }, "error: HTTP 500 Internal Server Error: upstream exploded (the server failed; try again later)"],
    [
      "HTTP 503，代理的 HTML 页",
      { status: 503, headers: { "content-type": "text/html" }, chunks: ["<html><body><h1>503</h1> Service   Unavailable</body></html>"] },
      "error: HTTP 503 Service Unavailable: <html><body><h1>503</h1> Service Unavailable</body></html> (the server failed; try again later)",
    ],
    ["HTTP 404（地址或模型写错）", json(404, { detail: "model 'qwen9' not found" }), "error: HTTP 404 Not Found: model 'qwen9' not found (check MINI_PI_BASE_URL"],
    ["200 但不是流（服务器不支持 stream）", json(200, { choices: [{ message: { content: "hi" } }] }), "error: expected a streamed answer (text/event-stream) from http://127.0.0.1:"],
    [
      "一行 data 不是 JSON（已收到的文字保留）",
      { chunks: [event(textChunk("前半句")), "data: {not json\n\n", DONE] },
      '前半句\nerror: malformed stream: an event\'s data is not JSON: "{not json"',
    ],
    ["chunk 形状不对", { chunks: [event({ choices: [{ delta: { content: 42 } }] }), DONE] }, "error: malformed stream: unexpected chunk (choices.0.delta.content:"],
    [
      "流中途服务器报错（OpenAI / vLLM 式）",
      { chunks: [event(textChunk("想一想")), event({ error: { message: "CUDA out of memory", code: 500 } })] },
      "想一想\nerror: the server reported an error mid-stream: CUDA out of memory",
    ],
    ["流中途服务器报错（llama.cpp 式 error: 行）", { chunks: ['error: {"code":500,"message":"context size exceeded","type":"server_error"}\n\n'] }, "error: the server reported an error mid-stream: context size exceeded"],
    [
      "流在 [DONE] 之前结束",
      { chunks: [event(textChunk("说到一半"))] },
      "说到一半\nerror: the stream ended before [DONE] after 89 bytes: the server closed the connection mid-answer",
    ],
    ["连接在流中途被掐断", { chunks: [event(textChunk("说到一半"))], then: "cut" }, "说到一半\nerror: connection lost after 89 bytes: terminated"],
    ["工具调用没有名字", { chunks: [event(toolChunk(0, { id: "call_9", arguments: "{}" })), event(finishChunk("tool_calls")), DONE] }, "error: the model sent tool call #1 without a function name"],
  ];

  it.each(cases)("%s", async (_name, reply, expected) => {
    await withServer(
      () => reply,
      async (server) => {
        const { message, calls } = await answer(providerFor(server));
        expect(message.stopReason).toBe("error");
        expect(message.content).toContain(expected);
        expect(message.content).not.toContain(KEY);
        expect(calls).toEqual([]);
      },
    );
  });

  // 同样的失败，换成字节被 HTTP 切成任意块送来（切点可以落在 UTF-8 字符中间、data: / error: 行中间）：
  // 用户看到的结果——助手消息和要执行的调用——必须和整块送来时一模一样。上面 cases 里每个 SSE 流的失败都要过这一关。
  const bodyBytes = (reply: Reply): Uint8Array => concatBytes(reply.chunks);
  const isStream = (reply: Reply): boolean => (reply.status ?? 200) === 200 && (reply.headers?.["content-type"] ?? "text/event-stream") === "text/event-stream";
  /** 正文里没有多字节字符的，前面垫一段带中文和 emoji 的文字，好让切点能落进一个字符中间；整块和切开两次跑的是同一段字节。 */
  const MULTIBYTE_LEAD = event(textChunk("先说🙂，"));
  const splitCases = cases
    .filter(([, reply]) => isStream(reply) && reply.silent !== true)
    .map(([name, reply, expected]): [string, Reply, string] => [name, bodyBytes(reply).some((b) => b >= 0x80) ? reply : { ...reply, chunks: [MULTIBYTE_LEAD, ...reply.chunks] }, expected]);
  it("切开重放覆盖了每个 SSE 流的失败，每个都有多字节字符和 data: / error: 行可切", () => {
    expect(splitCases.map(([name]) => name)).toEqual([
      "一行 data 不是 JSON（已收到的文字保留）",
      "chunk 形状不对",
      "流中途服务器报错（OpenAI / vLLM 式）",
      "流中途服务器报错（llama.cpp 式 error: 行）",
      "流在 [DONE] 之前结束",
      "连接在流中途被掐断",
      "工具调用没有名字",
    ]);
    for (const [name, reply] of splitCases) {
      const bytes = bodyBytes(reply);
      const [inChar] = forcedCuts(bytes);
      expect(bytes[inChar] & 0xc0, `${name}: cut inside a UTF-8 character`).toBe(0x80);
      expect(forcedCuts(bytes).length, `${name}: has data: / error: lines`).toBeGreaterThan(2);
    }
  });

  it.each(splitCases)("%s：字节任意切开送来，用户看到的结果和整块送来时一样（fast-check）", async (_name, reply, expected) => {
    const whole = await sameUnderSplits(bodyBytes(reply), (chunks) => withServer(() => ({ ...reply, chunks }), async (server) => answer(providerFor(server))));
    expect(whole.message.stopReason).toBe("error");
    expect(whole.message.content).toContain(expected);
  });

  it("等不到响应头：超时", async () => {
    await withServer(
      () => ({ chunks: [], silent: true }),
      async (server) => {
        const { message } = await answer(providerFor(server, { timeoutMs: 100 }));
        expect(message).toEqual({ role: "assistant", content: "error: request timed out: nothing arrived for 100 ms (raise MINI_PI_TIMEOUT_MS for slow models)", stopReason: "error" });
      },
    );
  });

  it("流到一半不动了：超时，已收到的文字保留", async () => {
    await withServer(
      () => ({ chunks: [event(textChunk("开了个头"))], then: "hang" }),
      async (server) => {
        const { message } = await answer(providerFor(server, { timeoutMs: 300 }));
        expect(message).toEqual({ role: "assistant", content: "开了个头\nerror: request timed out: nothing arrived for 300 ms (raise MINI_PI_TIMEOUT_MS for slow models)", stopReason: "error" });
      },
    );
  });

  it("用户喊停（Ctrl+C）：request aborted，已收到的文字保留", async () => {
    await withServer(
      () => ({ chunks: [event(textChunk("开了个头"))], then: "hang" }),
      async (server) => {
        const controller = new AbortController();
        const provider = providerFor(server, { signal: controller.signal });
        async function* abortAfterFirstText(events: AsyncIterable<ProviderEvent>): AsyncGenerator<ProviderEvent> {
          for await (const e of events) {
            yield e;
            if (e.type === "text_delta") controller.abort();
          }
        }
        const message = await collectAssistantMessage(abortAfterFirstText(provider.stream(INPUT)));
        expect(message).toEqual({ role: "assistant", content: "开了个头\nerror: request aborted", stopReason: "error" });
      },
    );
  });

  it("连不上（端口上没有服务）", async () => {
    const server = await startReplayServer(() => ({ chunks: [] }));
    await server.close();
    const { message } = await answer(providerFor(server));
    expect(message.stopReason).toBe("error");
    expect(message.content).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: fetch failed \(.*ECONNREFUSED.*\)$/);
  });
});

// ── 历史里的工具调用 ──────────────────────────────────────
describe("请求里补回 tool_calls：课程的助手消息只存文字，OpenAI 要求 tool 消息前有带 tool_calls 的助手消息", () => {
  const remembered: Record<string, ChatToolCall> = {
    c1: { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
    c2: { id: "c2", type: "function", function: { name: "ls", arguments: '{"path":"."}' } },
  };
  const recall = (id: string): RememberedCall | undefined => (remembered[id] === undefined ? undefined : { call: remembered[id] });

  it("每段连续的 toolResult：调用挂到前面那条助手消息上（空文字变 null），结果成为 tool 消息", () => {
    const messages: ChatMessage[] = toChatMessages(
      {
        systemPrompt: "",
        tools: [],
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "" },
          { role: "toolResult", toolCallId: "c1", content: "A" },
          { role: "toolResult", toolCallId: "c2", content: "B" },
          { role: "assistant", content: "好的" },
        ],
      },
      recall,
    );
    expect(messages).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: null, tool_calls: [remembered.c1, remembered.c2] },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "tool", tool_call_id: "c2", content: "B" },
      { role: "assistant", content: "好的" },
    ]);
  });

  it("记不得的调用（历史来自别的 provider）：结果改成一条说明来历的 user 消息；前面不是助手消息就补一条", () => {
    const messages = toChatMessages(
      {
        systemPrompt: "s",
        tools: [],
        messages: [
          { role: "user", content: "q" },
          { role: "toolResult", toolCallId: "c1", content: "A" },
          { role: "toolResult", toolCallId: "zz", content: "Z" },
        ],
      },
      recall,
    );
    expect(messages).toEqual([
      { role: "system", content: "s" },
      { role: "user", content: "q" },
      { role: "assistant", content: null, tool_calls: [remembered.c1] },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "user", content: "Result of an earlier tool call (zz):\nZ" },
    ]);
  });

  it("ToolSpec → function 定义：参数全是必填字符串", () => {
    expect(toChatTools([{ name: "grep", description: "d", input: { pattern: "p", path: "q" } }])[0].function.parameters).toEqual({
      type: "object",
      properties: { pattern: { type: "string", description: "p" }, path: { type: "string", description: "q" } },
      required: ["pattern", "path"],
      additionalProperties: false,
    });
  });
});

// ── 工作目录和工具 ────────────────────────────────────────
let base: string;
let work: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "mini-pi-live-"));
  work = join(base, "project");
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
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("工作目录工具：只读，出不了工作目录，每次拒绝都是一条 error: 结果", () => {
  const LIMITS = { maxFileBytes: 1024, maxEntries: 100, maxMatches: 3, maxFilesSearched: 100 };
  const registry = (): ToolRegistry => {
    const r = new ToolRegistry();
    for (const tool of createWorkspaceTools(work, LIMITS)) r.register(tool);
    return r;
  };
  const run = (name: string, input: Record<string, string>): string => registry().run({ id: "t", name, input });

  it.each<[string, string, Record<string, string>, string]>([
    ["..", "read", { path: "../outside/secret.txt" }, 'error: "../outside/secret.txt" is outside the working directory'],
    ["藏在中间的 ..", "ls", { path: "src/../../outside" }, 'error: "src/../../outside" is outside the working directory'],
    ["绝对路径", "read", { path: "/etc/passwd" }, 'error: absolute paths are not allowed ("/etc/passwd"); use a path relative to the working directory'],
    ["指到目录外的文件链接", "read", { path: "link-out.txt" }, 'error: "link-out.txt" is a symlink that points outside the working directory'],
    ["指到目录外的目录链接", "ls", { path: "link-out-dir" }, 'error: "link-out-dir" is a symlink that points outside the working directory'],
    ["经过目录外链接的路径", "read", { path: "link-out-dir/secret.txt" }, 'error: "link-out-dir/secret.txt" is a symlink that points outside the working directory'],
    ["grep 从目录外链接开始", "grep", { pattern: "TODO", path: "link-out-dir" }, 'error: "link-out-dir" is a symlink that points outside the working directory'],
    ["隐藏文件", "read", { path: ".env" }, 'error: ".env" is hidden (.env); hidden files and folders are off limits'],
    ["隐藏目录里的文件", "read", { path: ".git/config" }, 'error: ".git/config" is hidden (.git); hidden files and folders are off limits'],
    ["指向隐藏文件的链接", "read", { path: "env-link" }, 'error: "env-link" is a symlink to a hidden file or folder'],
    ["超过大小上限", "read", { path: "big.txt" }, 'error: "big.txt" is 2.0 KB, over the 1.0 KB limit'],
    ["二进制（有 NUL）", "read", { path: "logo.png" }, 'error: "logo.png" looks like a binary file; only text files can be read'],
    ["二进制（不是 UTF-8）", "read", { path: "latin1.txt" }, 'error: "latin1.txt" looks like a binary file; only text files can be read'],
    ["不存在", "read", { path: "nope.md" }, 'error: no such file or folder: "nope.md"'],
    ["坏链接", "read", { path: "broken-link" }, 'error: "broken-link" is a broken or unreadable link'],
    ["read 一个目录", "read", { path: "src" }, 'error: "src" is a folder; use ls to list it'],
    ["ls 一个文件", "ls", { path: "README.md" }, 'error: "README.md" is a file; use read to see it'],
    ["grep 空模式", "grep", { pattern: "", path: "." }, "error: pattern is empty"],
    ["参数不全（s12 的 zod 校验照旧）", "grep", { pattern: "x" }, 'error: invalid arguments for tool "grep": argument "path" is missing'],
  ])("%s", (_name, tool, input, expected) => {
    expect(run(tool, input)).toBe(expected);
  });

  it("read：读文本文件，链接指向目录里面的照读，空文件说明是空的", () => {
    expect(run("read", { path: "README.md" })).toBe("# demo\n一个示例项目。TODO: 写文档\n");
    expect(run("read", { path: "./src/../link-in.ts" })).toBe("export const x = 1; // todo later\n// TODO: more\n");
    expect(run("read", { path: "src/empty.ts" })).toBe("(empty file)");
  });

  it("ls：目录带 /，隐藏项不列只计数，指向禁区的链接标出来", () => {
    expect(run("ls", { path: "." })).toBe(
      [
        "README.md",
        "big.txt",
        "broken-link (link to somewhere off limits)",
        "env-link (link to somewhere off limits)",
        "latin1.txt",
        "link-in.ts",
        "link-out-dir (link to somewhere off limits)",
        "link-out.txt (link to somewhere off limits)",
        "logo.png",
        "node_modules/",
        "src/",
        "(2 hidden entries not shown)",
      ].join("\n"),
    );
    expect(run("ls", { path: "src/" })).toBe("empty.ts\nmain.ts");
  });

  it("grep：不进隐藏目录、node_modules、链接，跳过二进制和超大文件；全小写时不分大小写；到上限就停", () => {
    expect(run("grep", { pattern: "TODO", path: "." })).toBe(
      ["README.md:2: 一个示例项目。TODO: 写文档", "src/main.ts:2: // TODO: more", "(skipped 3 binary or oversized files)"].join("\n"),
    );
    expect(run("grep", { pattern: "todo", path: "src" })).toBe("src/main.ts:1: export const x = 1; // todo later\nsrc/main.ts:2: // TODO: more");
    expect(run("grep", { pattern: "e", path: "." }).split("\n")).toEqual([
      "README.md:1: # demo",
      "src/main.ts:1: export const x = 1; // todo later",
      "src/main.ts:2: // TODO: more",
      "(stopped at 3 matches)",
      "(skipped 3 binary or oversized files)",
    ]);
    expect(run("grep", { pattern: "nothing-like-this", path: "src/main.ts" })).toBe('no matches for "nothing-like-this" in src/main.ts');
  });
});

// ── 走完整的 s12 链 ───────────────────────────────────────
/** 假终端：stdout 记下每次 write 的片段（stdout() 连起来看），stderr 记下每一行。 */
function liveIO(env: Record<string, string | undefined>, extra: Partial<LiveIO> = {}): LiveIO & { out: string[]; err: string[]; stdout_: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { stdout: { write: (t) => out.push(t) }, stderr: { log: (l) => err.push(l) }, env, cwd: work, out, err, stdout_: () => out.join(""), ...extra };
}

describe("两轮工具对话，走真正的 s12 runOneTurn", () => {
  it("第一次回答要两个工具，结果带着补回的 tool_calls 发回去，第二次回答收尾", async () => {
    await withServer(
      (n) => ({ chunks: [n === 0 ? TOOL_ANSWER : textAnswer(["这是一个", "示例项目。"])] }),
      async (server) => {
        const read = readLiveConfig({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model", [ENV.apiKey]: KEY });
        if (!read.ok) throw new Error(read.problems.join("\n"));
        const io = liveIO({});
        const { agent } = createLiveAgent(read.config, io);
        const reply = await runOneTurn(agent, "这个项目是做什么的？");

        expect(reply).toEqual({ role: "assistant", content: "这是一个示例项目。", stopReason: "stop" });
        // 每段回答边到边打，各自以换行收尾；工具进度在 stderr
        expect(io.stdout_()).toBe("我先看一下 README🙂，再列目录。\n这是一个示例项目。\n");
        expect(agent.state.messages.currentPath().map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
        const listing = run(".");
        expect(server.requests).toHaveLength(2);
        expect((server.requests[1].body as { messages: ChatMessage[] }).messages.slice(1)).toEqual([
          { role: "user", content: "这个项目是做什么的？" },
          {
            role: "assistant",
            content: "我先看一下 README🙂，再列目录。",
            tool_calls: [
              { id: "call_a", type: "function", function: { name: "read", arguments: '{"path": "README.md"}' } },
              { id: "call_b", type: "function", function: { name: "ls", arguments: '{"path": "."}' } },
            ],
          },
          { role: "tool", tool_call_id: "call_a", content: "# demo\n一个示例项目。TODO: 写文档\n" },
          { role: "tool", tool_call_id: "call_b", content: listing },
        ]);
        expect(io.err).toContain('  → read {"path":"README.md"}');
      },
    );
    function run(path: string): string {
      const registry = new ToolRegistry();
      for (const tool of createWorkspaceTools(work)) registry.register(tool);
      return registry.run({ id: "x", name: "ls", input: { path } });
    }
  });

  it("服务器每次都从 call_0 数起：id 换成唯一的，第三次请求里调用和结果一一对得上", async () => {
    const call = (name: string, args: string): string =>
      [event(toolChunk(0, { id: "call_0", name, arguments: args })), event(finishChunk("tool_calls")), DONE].join("");
    await withServer(
      (n) => ({ chunks: [[call("read", '{"path":"README.md"}'), call("ls", '{"path":"src"}'), textAnswer(["好了"])][n]] }),
      async (server) => {
        const read = readLiveConfig({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m" });
        if (!read.ok) throw new Error(read.problems.join("\n"));
        const reply = await runOneTurn(createLiveAgent(read.config, liveIO({})).agent, "看看");
        expect(reply.content).toBe("好了");
        const messages = (server.requests[2].body as { messages: ChatMessage[] }).messages;
        expect(messages.map((m) => (m.role === "assistant" ? m.tool_calls?.map((c) => c.id) : m.role === "tool" ? m.tool_call_id : m.role))).toEqual([
          "system",
          "user",
          ["call_0"],
          "call_0",
          ["call_0_2"],
          "call_0_2",
        ]);
      },
    );
  });
});

describe("npm run live：设置从环境变量来，缺了就说清楚并以非零退出", () => {
  it("什么都没设：列出缺的变量、给例子，退出码 2，不发请求", async () => {
    const io = liveIO({});
    expect(await runLive(["你好"], io)).toBe(2);
    expect(io.out).toEqual([]);
    const text = io.err.join("\n");
    for (const name of [ENV.baseUrl, ENV.model, ENV.apiKey]) expect(text).toContain(`${name} 没有设置`);
    expect(text).toContain('npm run -s live -- "');
  });

  it("远程地址必须有密钥，本机地址可以不设；超时、信任写错了也点名；没给问题打用法", async () => {
    expect(readLiveConfig({ [ENV.baseUrl]: "https://api.deepseek.com/v1", [ENV.model]: "deepseek-chat" })).toEqual({
      ok: false,
      problems: [expect.stringContaining(`${ENV.apiKey} 没有设置`)],
    });
    expect(readLiveConfig({ [ENV.baseUrl]: "http://localhost:8080/v1", [ENV.model]: "m" })).toMatchObject({ ok: true, config: { apiKey: undefined, timeoutMs: 120_000, trust: "untrusted" } });
    expect(readLiveConfig({ [ENV.baseUrl]: "ftp://x", [ENV.model]: "m", [ENV.timeoutMs]: "soon", [ENV.trust]: "yes" })).toEqual({
      ok: false,
      problems: [`${ENV.baseUrl} 不是 http(s) 地址：ftp://x/`, `${ENV.timeoutMs} 要是正整数（毫秒），现在是 "soon"`, `${ENV.trust} 只能是 trusted 或 untrusted，现在是 "yes"`],
    });
    const io = liveIO({ [ENV.baseUrl]: "http://127.0.0.1:1/v1", [ENV.model]: "m" });
    expect(await runLive([], io)).toBe(2);
    expect(io.err).toEqual(['用法：npm run -s live -- "你的问题"']);
  });

  it("跑通一轮：stdout 只有模型的回答，stderr 有开场一行和工具进度，退出码 0；不信任时 AGENTS.md 不进系统提示；工具结果里的密钥打码", async () => {
    writeFileSync(join(work, "AGENTS.md"), `这个项目用 pnpm。部署口令：${KEY}`);
    try {
      await withServer(
        (n) => ({ chunks: [n % 2 === 0 ? [event(toolChunk(0, { id: "c", name: "read", arguments: '{"path":"AGENTS.md"}' })), event(finishChunk("tool_calls")), DONE].join("") : textAnswer(["读完了。"])] }),
        async (server) => {
          const env = { [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model", [ENV.apiKey]: KEY };
          const io = liveIO(env);
          expect(await runLive(["这个", "项目？"], io)).toBe(0);
          expect(io.stdout_()).toBe("读完了。\n");
          expect(io.err).toEqual([
            `mini Pi · 模型 test-model @ ${server.baseUrl} · 工作目录 ${work}`,
            "AGENTS.md 没有加载：项目默认不信任，确认它可信后设 MINI_PI_TRUST=trusted",
            '  → read {"path":"AGENTS.md"}',
            "  ← 22 chars",
          ]);
          const toolMessage = (server.requests[1].body as { messages: ChatMessage[] }).messages.at(-1);
          expect(toolMessage).toEqual({ role: "tool", tool_call_id: "c", content: "这个项目用 pnpm。部署口令：sk-***" });
          const system = (body: unknown): string => (body as { messages: ChatMessage[] }).messages[0].content ?? "";
          expect(system(server.requests[0].body)).not.toContain("pnpm");

          const trusted = liveIO({ ...env, [ENV.trust]: "trusted" });
          expect(await runLive(["再问一次"], trusted)).toBe(0);
          expect(trusted.err[1]).toBe("AGENTS.md 已加载（MINI_PI_TRUST=trusted）");
          expect(system(server.requests[2].body)).toContain("这个项目用 pnpm。");
          for (const line of [...io.out, ...io.err, ...trusted.out, ...trusted.err]) expect(line).not.toContain(KEY);
        },
      );
    } finally {
      rmSync(join(work, "AGENTS.md"));
    }
  });

  it("回答以出错告终：error 那一行在 stderr（它不是回答），stdout 什么都没有，退出码 1，服务器回显的密钥被换成 ***", async () => {
    await withServer(
      () => ({ status: 401, headers: { "content-type": "application/json" }, chunks: [JSON.stringify({ error: { message: `bad key ${KEY}` } })] }),
      async (server) => {
        const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m", [ENV.apiKey]: KEY });
        expect(await runLive(["hi"], io)).toBe(EXIT.failed);
        expect(io.stdout_()).toBe("");
        expect(io.err.at(-1)).toBe("error: HTTP 401 Unauthorized: bad key *** (check MINI_PI_API_KEY, and that this key may use MINI_PI_MODEL)");
        for (const line of [...io.out, ...io.err]) expect(line).not.toContain(KEY);
      },
    );
  });

  it("回答说到一半断了：收到的半句留在 stdout（以换行收尾），error 那一行在 stderr，退出码 1", async () => {
    await withServer(
      () => ({ chunks: [event(textChunk("说到一半"))], then: "cut" }),
      async (server) => {
        const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m" });
        expect(await runLive(["hi"], io)).toBe(EXIT.failed);
        expect(io.stdout_()).toBe("说到一半\n");
        expect(io.err.at(-1)).toMatch(/^error: connection lost after 89 bytes: terminated/);
      },
    );
  });

  it("真的当命令跑（node --import tsx live/main.ts），没有设置：打说明，退出码 2", async () => {
    const result = await promisify(execFile)(process.execPath, ["--import", "tsx", "live/main.ts", "你好"], { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${ENV.baseUrl} 没有设置`);
  });
});

// ── 问题 15 的八条 ────────────────────────────────────────
type LiveRun = { code: number; stdout: string; stderr: string[]; bodies: string[] };

/**
 * 起一个回放服务器，用 runLive 问一个问题，交出用户和服务器各看到了什么：退出码、stdout、stderr 的每一行、每个请求的正文。
 * 服务器地址（端口每次不同）在 stderr 里换成 <server>，好让两次运行能直接比。
 */
async function runAgainst(script: (n: number) => Reply, env: Record<string, string> = {}, options: { cwd?: string; args?: string[] } = {}): Promise<LiveRun> {
  return withServer(script, async (server) => {
    const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model", ...env }, { cwd: options.cwd ?? work });
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
const callAnswer = (name: string, args: string, id = "call_1", lead = ""): string =>
  [...(lead === "" ? [] : [event(textChunk(lead))]), event(toolChunk(0, { id, name, arguments: args })), event(finishChunk("tool_calls")), DONE].join("");

describe("1. AGENTS.md 和工具守同一道围栏：解开链接后在工作目录外的，不加载、stderr 说一句，绝不发给模型服务器", () => {
  const CANARY = `CANARY-${Math.random().toString(36).slice(2)}-金丝雀`;
  let fence: string;
  /** 每种情形一个项目目录：名字 → 目录。 */
  const projects: Record<string, string> = {};
  beforeAll(() => {
    fence = join(base, "fence");
    const outside = join(fence, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "canary.txt"), `# 别读我\n${CANARY}\n`);
    const project = (name: string, setup: (dir: string) => void): void => {
      const dir = join(fence, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "README.md"), "# 项目\n");
      setup(dir);
      projects[name] = dir;
    };
    project("file-link", (dir) => symlinkSync("../outside/canary.txt", join(dir, "AGENTS.md")));
    project("absolute-link", (dir) => symlinkSync(join(outside, "canary.txt"), join(dir, "AGENTS.md")));
    project("dir-link", (dir) => {
      symlinkSync("../outside", join(dir, "docs")); // 看上去在里面的目录，其实是链到外面
      symlinkSync("docs/canary.txt", join(dir, "AGENTS.md"));
    });
    project("chained-link", (dir) => {
      symlinkSync("../outside/canary.txt", join(dir, "notes.md"));
      symlinkSync("notes.md", join(dir, "AGENTS.md")); // 链到里面的一个链接，它再链到外面
    });
    project("hidden-link", (dir) => {
      mkdirSync(join(dir, ".private"));
      writeFileSync(join(dir, ".private", "notes.md"), CANARY);
      symlinkSync(".private/notes.md", join(dir, "AGENTS.md"));
    });
    project("inside-link", (dir) => {
      mkdirSync(join(dir, "notes"));
      writeFileSync(join(dir, "notes", "agents.md"), "这个项目用 pnpm。");
      symlinkSync("notes/agents.md", join(dir, "AGENTS.md"));
    });
    project("real", (dir) => writeFileSync(join(dir, "AGENTS.md"), "这个项目用 pnpm。"));
    project("control", (dir) => writeFileSync(join(dir, "AGENTS.md"), CANARY));
    symlinkSync(projects.real, join(fence, "real-via-link")); // 工作目录本身经过一个链接
    projects["real-via-link"] = join(fence, "real-via-link");
  });

  /** 模型先去读 AGENTS.md（看围栏是否也挡住了工具），再回答。 */
  const script = (n: number): Reply => ({ chunks: [n === 0 ? callAnswer("read", '{"path":"AGENTS.md"}', "call_1", "先看看说明🙂。") : textAnswer(["好的。"])] });
  const trusted = { [ENV.trust]: "trusted" };

  it.each<[string, string]>([
    ["file-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["absolute-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["dir-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["chained-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["hidden-link", '"AGENTS.md" is a symlink to a hidden file or folder'],
  ])("%s：不加载，stderr 一行说明原因；金丝雀不在任何请求正文里，也不在输出里", async (name, reason) => {
    const run = await runAgainst(script, trusted, { cwd: projects[name] });
    expect(run.code).toBe(EXIT.answered);
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual([`AGENTS.md 没有加载：${reason}（它得是工作目录里的文本文件）`]);
    expect(run.bodies).toHaveLength(2);
    for (const body of run.bodies) expect(body).not.toContain(CANARY);
    expect(run.bodies[0]).not.toContain("# 项目说明"); // 系统提示里没有项目说明这一节
    expect(JSON.parse(run.bodies[1]).messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: `error: ${reason}` });
    expect([run.stdout, ...run.stderr].join("\n")).not.toContain(CANARY);
  });

  it("不信任时也一样：围栏先说不能读，不再提信任", async () => {
    const run = await runAgainst(script, {}, { cwd: projects["dir-link"] });
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual([
      'AGENTS.md 没有加载："AGENTS.md" is a symlink that points outside the working directory（它得是工作目录里的文本文件）',
    ]);
    for (const body of run.bodies) expect(body).not.toContain(CANARY);
  });

  it.each(["inside-link", "real", "real-via-link"])("%s：在工作目录里的照常加载（围栏不误伤：指向里面的链接、工作目录本身是链接）", async (name) => {
    const run = await runAgainst(script, trusted, { cwd: projects[name] });
    expect(run.code).toBe(EXIT.answered);
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual(["AGENTS.md 已加载（MINI_PI_TRUST=trusted）"]);
    expect(JSON.parse(run.bodies[0]).messages[0].content).toContain("## AGENTS.md\n这个项目用 pnpm。");
  });

  it("检查本身会失败：金丝雀真在工作目录里时，同样的检查在请求正文里找到了它", async () => {
    const run = await runAgainst(script, trusted, { cwd: projects.control });
    expect(run.stderr).toContain("AGENTS.md 已加载（MINI_PI_TRUST=trusted）");
    expect(run.bodies.filter((body) => body.includes(CANARY))).toHaveLength(2);
  });

  it("dir-link 的整段对话，回答的字节任意切开送来，结果一样（fast-check）", async () => {
    const bytes = utf8(script(0).chunks[0] as string);
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst((n) => (n === 0 ? { chunks } : script(n)), trusted, { cwd: projects["dir-link"] }), 10);
    expect(whole.code).toBe(EXIT.answered);
    for (const body of whole.bodies) expect(body).not.toContain(CANARY);
  });
});

describe("2. 密钥先打码再截短：放在正文的任何位置、跨在任何截断处，输出里都找不出它的任何一截（≥ 6 个字符）", () => {
  /** 输出里有没有密钥的某一截（长度 k）；有就交出找到的那一截。任何更长的一截都含有长度 k 的一截，查 k 就够了。 */
  const leak = (output: string, key: string, k = MIN_FRAGMENT): string | undefined => {
    for (let i = 0; i + k <= key.length; i++) if (output.includes(key.slice(i, i + k))) return key.slice(i, i + k);
    return undefined;
  };
  /** 垫在密钥前后的文字：字母表和密钥（sk- 加字母数字）不相交，所以找到的任何一截都只能来自密钥本身。 */
  const PAD = [..."<>/=:;,.!?·中文🙂【】 \n"];
  const padArb = (maxLength: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...PAD), { maxLength }).map((a) => a.join(""));
  const ALNUM = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"];
  const keyArb = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 16, maxLength: 48 }).map((s) => `sk-${s}`);
  const pad = (n: number): string => "x".repeat(n); // 'x' 不在 KEY 里
  /** 每条会截短的路：从正文到给人看的那句话。 */
  const paths: Array<[string, number, (body: string, key: string) => string]> = [
    ["服务器错误正文（纯文字）", ERROR_TEXT_CHARS, (body, key) => serverErrorText(body, key)],
    ["服务器错误正文（JSON 的 error.message）", ERROR_TEXT_CHARS, (body, key) => serverErrorText(JSON.stringify({ error: { message: body } }), key)],
    ["坏数据的引用", EXCERPT_CHARS, (body, key) => excerpt(body, key)],
    ["工具进度那一行", 160, (body, key) => maskThenShorten(body, key, 160)],
  ];

  it("检查本身会失败：旧做法（先截短再整串替换）让跨在截断处的密钥漏出前半截", () => {
    const body = `${pad(ERROR_TEXT_CHARS - 10)}${KEY}${pad(50)}`;
    const old = body.slice(0, ERROR_TEXT_CHARS).split(KEY).join("***");
    expect(leak(old, KEY)).toBe(KEY.slice(0, MIN_FRAGMENT));
    expect(leak(serverErrorText(body, KEY), KEY)).toBeUndefined();
  });

  it.each(paths)("%s：密钥放在长正文的每一个位置（含跨在截断处的每一种跨法）", (_name, limit, path) => {
    for (let at = 0; at <= limit + 40; at++) {
      const body = `${pad(at)}${KEY}${pad(limit + 40 - at)}`;
      const out = path(body, KEY);
      expect(leak(out, KEY), `key at ${at}: ${out}`).toBeUndefined();
      if (at + KEY.length <= limit - 10) expect(out, `key at ${at}`).toContain("***"); // 整串在截断之前：看得到打码的痕迹
    }
  });

  it.each(paths)("%s：服务器那边已经截断的密钥（开头一截），够 6 个字符就打码", (_name, limit, path) => {
    for (let length = 1; length <= KEY.length; length++) {
      for (const at of [0, 37, limit - length, limit - 3]) {
        const fragment = KEY.slice(0, length);
        const out = path(`${pad(Math.max(0, at))}${fragment}…${pad(30)}`, KEY);
        expect(leak(out, KEY), `fragment ${length} at ${at}: ${out}`).toBeUndefined();
        if (length < MIN_FRAGMENT && at + length <= limit) expect(out).toContain(fragment); // 短于 6 的不打：它只是公开的 sk- 前缀那一类
      }
    }
  });

  it("任意密钥、任意垫字、任意位置、完整或截断的密钥，每条路都一截不漏（fast-check）", () => {
    fc.assert(
      fc.property(keyArb, padArb(400), padArb(400), fc.nat(), fc.boolean(), (key, before, after, cut, whole) => {
        const secret = whole ? key : key.slice(0, MIN_FRAGMENT + (cut % (key.length - MIN_FRAGMENT)));
        for (const [name, , path] of paths) expect(leak(path(`${before}${secret}${after}`, key), key), name).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("流式打码：任意切法下，逐段打码连起来都等于整段打码（fast-check）", () => {
    const piece = fc.oneof(fc.constant(KEY), fc.nat(KEY.length).map((n) => KEY.slice(0, n)), fc.string({ maxLength: 8 }), fc.constantFrom(..."sk-tT🙂"));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, cuts) => {
        const text = pieces.join("");
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const mask = new SecretMask(KEY);
        let out = "";
        let start = 0;
        for (const point of [...points, text.length]) {
          out += mask.push(text.slice(start, point));
          start = point;
        }
        out += mask.end();
        expect(out).toBe(maskSecret(text, KEY));
        expect(leak(out, KEY)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("回答里带着密钥，被切在两段文字之间、字节在任意处切开：stdout 上是 ***，一截也不漏（回放，fast-check）", async () => {
    const bytes = utf8(textAnswer(["密钥是 sk-te", "st-SECRET", "-4f9c。🙂 前缀 sk- 不算"]));
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst(() => ({ chunks }), { [ENV.apiKey]: KEY }));
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("密钥是 ***。🙂 前缀 sk- 不算\n");
    expect(leak([whole.stdout, ...whole.stderr].join("\n"), KEY)).toBeUndefined();
  });

  it("HTML 502 页回显了 Authorization 头，密钥跨在 300 字截断处的每一种跨法：stderr 的错误一截也不漏（回放）", async () => {
    let body = "";
    await withServer(
      () => ({ status: 502, headers: { "content-type": "text/html" }, chunks: [body] }),
      async (server) => {
        const head = "<html><body><h1>502 Bad Gateway</h1><pre>Authorization: Bearer ";
        for (let at = ERROR_TEXT_CHARS - KEY.length - 2; at <= ERROR_TEXT_CHARS + 1; at++) {
          body = `${head.padStart(at, "x")}${KEY}</pre></body></html>`;
          const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m", [ENV.apiKey]: KEY });
          expect(await runLive(["hi"], io)).toBe(EXIT.failed);
          const output = [io.stdout_(), ...io.err].join("\n");
          expect(io.err.at(-1)).toMatch(/^error: HTTP 502 Bad Gateway: x*<html>/);
          expect(leak(output, KEY), `key at ${at}: ${output}`).toBeUndefined();
        }
      },
    );
  });

  it("模型把密钥塞进工具参数：→ 那一行和 ← 那一行（截到 160 字）都一截不漏", async () => {
    for (const at of [100, 125, 140, 150, 160]) {
      const path = `${pad(at)}${KEY}`;
      const run = await runAgainst((n) => ({ chunks: [n === 0 ? callAnswer("read", JSON.stringify({ path })) : textAnswer(["好"])] }), { [ENV.apiKey]: KEY });
      expect(run.stderr.some((line) => line.startsWith("  ← error: no such file or folder"))).toBe(true);
      expect(leak(run.stderr.join("\n"), KEY), `key at ${at}`).toBeUndefined();
    }
  });
});

describe("3. 思考型模型：每段回答的思考过程跟着它走，按服务器的字段名带回去；只想不答要说出来", () => {
  /** 先想、再要一个工具的回答；想的内容分两块，中间有 emoji，好让字节切点落进字符中间。 */
  const thinkThenCall = (field: "reasoning_content" | "reasoning"): string =>
    [
      event({ choices: [{ index: 0, delta: { role: "assistant", content: null, [field]: "" } }] }),
      event(reasoningChunk("用户问项目是做什么的，", field)),
      event(reasoningChunk("先读 README🙂。", field)),
      event(toolChunk(0, { id: "call_r", name: "read", arguments: '{"path":"README.md"}' })),
      event(finishChunk("tool_calls")),
      DONE,
    ].join("");
  const thinkThenAnswer = (field: "reasoning_content" | "reasoning"): string =>
    [event(reasoningChunk("读完了，可以回答。", field)), event({ choices: [{ index: 0, delta: { content: "这是一个示例项目。", [field]: null } }] }), event(finishChunk("stop")), DONE].join("");

  it.each<["reasoning_content" | "reasoning", string]>([
    ["reasoning_content", "DeepSeek 思考模式"],
    ["reasoning", "Ollama"],
  ])("%s（%s）：带 tool_calls 的那条助手消息原样带回思考过程；思考不上 stdout；字节任意切开结果一样（fast-check）", async (field) => {
    const bytes = utf8(thinkThenCall(field));
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst((n) => ({ chunks: n === 0 ? chunks : [thinkThenAnswer(field)] })), 15);
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("这是一个示例项目。\n");
    expect(whole.stderr.filter((line) => line === "  … 模型在思考")).toHaveLength(2);
    const [, user, assistant, tool] = JSON.parse(whole.bodies[1]).messages as ChatMessage[];
    expect(user).toEqual({ role: "user", content: "这个项目是做什么的？" });
    expect(assistant).toEqual({
      role: "assistant",
      content: null,
      [field]: "用户问项目是做什么的，先读 README🙂。",
      tool_calls: [{ id: "call_r", type: "function", function: { name: "read", arguments: '{"path":"README.md"}' } }],
    });
    expect(tool).toMatchObject({ role: "tool", tool_call_id: "call_r" });
    expect(whole.bodies[1]).not.toContain(field === "reasoning" ? "reasoning_content" : '"reasoning"'); // 不替服务器发明另一个字段
  });

  it("只想不答：不打空行、不以 0 退出，stderr 说模型只想了没答（想了多少、finish_reason）；字节任意切开结果一样（fast-check）", async () => {
    const onlyThinking = [event(reasoningChunk("嗯……让我想想🙂，")), event(reasoningChunk("还在想。")), event(finishChunk("stop")), DONE].join("");
    const whole = await sameUnderSplits(utf8(onlyThinking), (chunks) => runAgainst(() => ({ chunks })));
    expect(whole.code).toBe(EXIT.failed);
    expect(whole.stdout).toBe("");
    expect(whole.stderr.at(-1)).toBe('error: the model only reasoned and gave no answer (13 characters of reasoning; finish_reason "stop")');
  });

  it("想到输出上限还没想完：说清是长度用完了；什么都没给的空回答也说出来", async () => {
    const cut = await runAgainst(() => ({ chunks: [[event(reasoningChunk("想啊想")), event(finishChunk("length")), DONE].join("")] }));
    expect(cut.code).toBe(EXIT.failed);
    expect(cut.stderr.at(-1)).toBe('error: the model only reasoned and gave no answer (3 characters of reasoning; finish_reason "length": it ran out of output length while still thinking)');
    const empty = await runAgainst(() => ({ chunks: [textAnswer([])] }));
    expect(empty.code).toBe(EXIT.failed);
    expect(empty.stdout).toBe("");
    expect(empty.stderr.at(-1)).toBe('error: the model sent an empty answer (no text and no tool calls; finish_reason "stop")');
  });

  it("思考字段不是字符串（个别代理给对象或 null）：当没有，不为它判整个流坏了", async () => {
    const odd = [event({ choices: [{ index: 0, delta: { reasoning: { summary: "x" }, reasoning_content: null, content: "答" } }] }), event(finishChunk("stop")), DONE].join("");
    const run = await runAgainst(() => ({ chunks: [odd] }));
    expect(run.code).toBe(EXIT.answered);
    expect(run.stdout).toBe("答\n");
    expect(run.stderr).not.toContain("  … 模型在思考");
  });

  it("toChatMessages：思考过程只挂在发出调用的那条助手消息上，两个字段都出现过就都带回", () => {
    const call: ChatToolCall = { id: "c1", type: "function", function: { name: "ls", arguments: '{"path":"."}' } };
    const reasoning = { reasoning_content: "想 A", reasoning: "想 B" };
    const messages = toChatMessages(
      {
        systemPrompt: "",
        tools: [],
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "看一下" },
          { role: "toolResult", toolCallId: "c1", content: "a.ts" },
          { role: "assistant", content: "好了" },
        ],
      },
      (id) => (id === "c1" ? { call, reasoning } : undefined),
    );
    expect(messages).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: "看一下", tool_calls: [call], reasoning_content: "想 A", reasoning: "想 B" },
      { role: "tool", tool_call_id: "c1", content: "a.ts" },
      { role: "assistant", content: "好了" },
    ]);
  });
});

describe("4. 工具参数不成形：回一条 error 结果（错在哪、收到的是什么，截短），模型改了再调，这一轮照常往下走", () => {
  type Tail = { assistant: ChatMessage; tool: ChatMessage };
  /** 第 n 个请求里，最后一条助手消息和它后面的那条 tool 消息。 */
  const tail = (run: LiveRun, n: number): Tail => {
    const messages = JSON.parse(run.bodies[n]).messages as ChatMessage[];
    return { assistant: messages.at(-2) as ChatMessage, tool: messages.at(-1) as ChatMessage };
  };
  /** 每个请求里回传的每个调用，参数都得是合法 JSON：Ollama 解析不了就整个请求回 400（"invalid tool call arguments"）。 */
  const argumentsAllJson = (run: LiveRun): void => {
    for (const body of run.bodies) {
      for (const m of JSON.parse(body).messages as ChatMessage[]) {
        if (m.role === "assistant") for (const call of m.tool_calls ?? []) expect(() => JSON.parse(call.function.arguments)).not.toThrow();
      }
    }
  };
  const RETRY = "call the tool again with a JSON object of strings";

  it("坏 JSON：模型收到 error 结果，改了再调，第三次请求收尾；退出码 0；字节任意切开结果一样（fast-check）", async () => {
    const broken = callAnswer("read", '{"path": "src/', "call_9", "我看看🙂。");
    const script = (chunks: Reply["chunks"]) => (n: number): Reply => ({ chunks: [chunks, [callAnswer("read", '{"path":"README.md"}', "call_10")], [textAnswer(["好了。"])]][n] });
    const whole = await sameUnderSplits(utf8(broken), (chunks) => runAgainst(script(chunks)), 15);
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("我看看🙂。\n好了。\n");
    expect(whole.bodies).toHaveLength(3);
    const { assistant, tool } = tail(whole, 1);
    expect(assistant).toEqual({ role: "assistant", content: "我看看🙂。", tool_calls: [{ id: "call_9", type: "function", function: { name: "read", arguments: "{}" } }] });
    expect(tool.role === "tool" && tool.tool_call_id).toBe("call_9");
    expect(tool.content).toMatch(/^error: invalid arguments for tool "read": not valid JSON \(.+\); received "\{\\"path\\": \\"src\/"; call the tool again with a JSON object of strings$/);
    expect(tail(whole, 2).tool.content).toBe("# demo\n一个示例项目。TODO: 写文档\n");
    expect(whole.stderr).toContain("  → read {}");
    expect(whole.stderr.find((line) => line.startsWith("  ← "))).toMatch(/^ {2}← error: invalid arguments for tool "read": not valid JSON/);
    argumentsAllJson(whole);
  });

  it.each<[string, string, string | undefined, RegExp | string]>([
    ["不是对象", '["README.md"]', "tool_calls", `error: invalid arguments for tool "read": expected a JSON object of strings; received "[\\"README.md\\"]"; ${RETRY}`],
    ["值是嵌套对象", '{"path": {"x": 1}}', "tool_calls", `error: invalid arguments for tool "read": expected a JSON object of strings; received "{\\"path\\": {\\"x\\": 1}}"; ${RETRY}`],
    ["被长度上限截断", '{"path": "sr', "length", /not valid JSON \(.+\); received "\{\\"path\\": \\"sr" — the answer hit the length limit, so they were probably cut off; call the tool/],
    ["很长的坏参数：收到的只引前 120 个字符", `{"path": "${"很长".repeat(200)}`, "tool_calls", new RegExp(`received "\\{\\\\"path\\\\": \\\\"${"很长".repeat(55)}"…; ${RETRY}$`)],
  ])("%s", async (_name, args, finish, expected) => {
    const answer = [event(toolChunk(0, { id: "call_9", name: "read", arguments: args })), event(finishChunk(finish ?? "tool_calls")), DONE].join("");
    const run = await runAgainst((n) => ({ chunks: [n === 0 ? answer : textAnswer(["好"])] }));
    expect(run.code).toBe(EXIT.answered);
    const { tool } = tail(run, 1);
    if (typeof expected === "string") expect(tool.content).toBe(expected);
    else expect(tool.content).toMatch(expected);
    argumentsAllJson(run);
  });

  it("一直发坏参数的模型：每次都拿到 error 结果，直到 MINI_PI_MAX_TURNS 的上限，以问满次数的退出码结束", async () => {
    const run = await runAgainst(() => ({ chunks: [callAnswer("read", "{oops", "call_0")] }), { [ENV.maxTurns]: "3" });
    expect(run.bodies).toHaveLength(3);
    expect(run.code).toBe(EXIT.maxTurns);
    expect(run.stderr.filter((line) => line.startsWith("  ← error: invalid arguments"))).toHaveLength(3);
    argumentsAllJson(run);
  });
});

describe("5. MINI_PI_TIMEOUT_MS 是空闲超时（离上一个字节多久，保活注释也算）；总时长上限另有 MINI_PI_TOTAL_TIMEOUT_MS", () => {
  const IDLE = 400;
  const GAP = 80;
  const KEEP_ALIVE = ": keep-alive\n\n";
  /** 稳稳地吐：先是一串保活注释（服务器在读长提示），再一段段文字，每块之间都停 GAP 毫秒。总时长是 IDLE 的好几倍。 */
  const steady = (silenceMs = 0): Reply["chunks"] => [
    ...Array.from({ length: 10 }, (): Reply["chunks"] => [KEEP_ALIVE, { waitMs: GAP }]).flat(),
    event(textChunk("慢慢")),
    { waitMs: GAP },
    event(textChunk("地")),
    { waitMs: silenceMs === 0 ? GAP : silenceMs },
    event(textChunk("说🙂。")),
    { waitMs: GAP },
    event(finishChunk("stop")),
    DONE,
  ];

  it("稳稳地吐、总时长是空闲超时的好几倍：不掐断，完整答完", async () => {
    const started = Date.now();
    const run = await runAgainst(() => ({ chunks: steady() }), { [ENV.timeoutMs]: String(IDLE) });
    const elapsed = Date.now() - started;
    expect(run.stderr.at(-1)).not.toMatch(/^error/);
    expect(run.code).toBe(EXIT.answered);
    expect(run.stdout).toBe("慢慢地说🙂。\n");
    expect(elapsed).toBeGreaterThan(2 * IDLE); // 以前的总截止时间在这里就会把回答拦腰切断
  });

  it("检查本身会失败：中途真的停了比空闲超时还久，就超时，已收到的文字留着", async () => {
    const run = await runAgainst(() => ({ chunks: steady(IDLE * 2) }), { [ENV.timeoutMs]: String(IDLE) });
    expect(run.code).toBe(EXIT.failed);
    expect(run.stdout).toBe("慢慢地\n");
    expect(run.stderr.at(-1)).toBe(`error: request timed out: nothing arrived for ${IDLE} ms (raise MINI_PI_TIMEOUT_MS for slow models)`);
  });

  it("总时长上限：设了 MINI_PI_TOTAL_TIMEOUT_MS，再稳也到点就停，说清该调哪个变量", async () => {
    const run = await runAgainst(() => ({ chunks: steady() }), { [ENV.timeoutMs]: String(IDLE), [ENV.totalTimeoutMs]: String(IDLE + 100) });
    expect(run.code).toBe(EXIT.failed);
    expect(run.stderr.at(-1)).toBe(`error: request took longer than ${IDLE + 100} ms in total (raise or unset MINI_PI_TOTAL_TIMEOUT_MS)`);
  });

  it("字节任意切开、每块之间都停一下送来：保活照样算数，结果一样（fast-check）", async () => {
    const body = utf8([KEEP_ALIVE, KEEP_ALIVE, textAnswer(["切开🙂", "也一样"])].join(""));
    const whole = await sameUnderSplits(
      body,
      (chunks) => runAgainst(() => ({ chunks: chunks.flatMap((c): Reply["chunks"] => [c, { waitMs: 40 }]) }), { [ENV.timeoutMs]: String(IDLE) }),
      5,
    );
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("切开🙂也一样\n");
  });

  it("设置：总时长上限默认不设，写了就得是正整数；空闲超时默认 120000", () => {
    const base = { [ENV.baseUrl]: "http://127.0.0.1:1/v1", [ENV.model]: "m" };
    expect(readLiveConfig(base)).toMatchObject({ ok: true, config: { timeoutMs: 120_000, totalTimeoutMs: undefined } });
    expect(readLiveConfig({ ...base, [ENV.totalTimeoutMs]: "600000" })).toMatchObject({ ok: true, config: { totalTimeoutMs: 600_000 } });
    expect(readLiveConfig({ ...base, [ENV.totalTimeoutMs]: "10m", [ENV.timeoutMs]: "-5" })).toEqual({
      ok: false,
      problems: [`${ENV.timeoutMs} 要是正整数（毫秒），现在是 "-5"`, `${ENV.totalTimeoutMs} 要是正整数（毫秒），现在是 "10m"`],
    });
  });
});

describe("6. 问满次数没有回答：自己的非零退出码，stderr 说没有回答、怎么放宽上限", () => {
  const LOOKING = callAnswer("ls", '{"path":"."}', "call_0", "再看看🙂。");

  it("一直要工具的模型：问满 MINI_PI_MAX_TURNS 次就停，退出码 3，stdout 只有它说过的话；字节任意切开结果一样（fast-check）", async () => {
    const whole = await sameUnderSplits(utf8(LOOKING), (chunks) => runAgainst(() => ({ chunks }), { [ENV.maxTurns]: "3" }), 10);
    expect(whole.code).toBe(EXIT.maxTurns);
    expect(whole.bodies).toHaveLength(3);
    expect(whole.stdout).toBe("再看看🙂。\n".repeat(3));
    expect(whole.stderr.at(-1)).toBe(maxTurnsMessage(3));
    expect(maxTurnsMessage(3)).toBe("没有回答：模型连着要了 3 次工具还没说完，到了 MINI_PI_MAX_TURNS 的上限（3）。想让它多查几次，就调大它，如 MINI_PI_MAX_TURNS=6");
  });

  it("不设就是课里的 DEFAULT_MAX_TURNS；放宽上限真的管用：要 3 次工具的模型，上限 3 答不出、上限 4 答得出", async () => {
    const always = await runAgainst(() => ({ chunks: [LOOKING] }));
    expect(always.bodies).toHaveLength(DEFAULT_MAX_TURNS);
    expect(always.code).toBe(EXIT.maxTurns);
    const needsThree = (n: number): Reply => ({ chunks: [n < 3 ? LOOKING : textAnswer(["看完了。"])] });
    expect((await runAgainst(needsThree, { [ENV.maxTurns]: "3" })).code).toBe(EXIT.maxTurns);
    const raised = await runAgainst(needsThree, { [ENV.maxTurns]: "4" });
    expect(raised.code).toBe(EXIT.answered);
    expect(raised.stdout.endsWith("看完了。\n")).toBe(true);
  });

  it("模型的回答恰好就是 max turns reached 这几个字：那是回答，退出码 0", async () => {
    const run = await runAgainst(() => ({ chunks: [textAnswer(["max turns reached"])] }));
    expect(run.code).toBe(EXIT.answered);
    expect(run.stdout).toBe("max turns reached\n");
  });

  it("退出码各不相同；MINI_PI_MAX_TURNS 要是正整数", () => {
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
    expect(readLiveConfig({ [ENV.baseUrl]: "http://127.0.0.1:1/v1", [ENV.model]: "m", [ENV.maxTurns]: "0" })).toEqual({
      ok: false,
      problems: [`${ENV.maxTurns} 要是正整数（次），现在是 "0"`],
    });
  });
});

describe("7. 回答边到边打：文字一到就上 stdout，一轮结束时不再打第二遍", () => {
  /** 服务器先送第一句，然后等：等到 stdout 上出现第一句，才送剩下的。不边到边打的话，它就一直等到空闲超时。 */
  async function gated(makeAgent: (config: LiveConfig, io: LiveIO) => Agent): Promise<{ order: string[]; reply: AssistantMessage }> {
    const order: string[] = [];
    let shown!: () => void;
    const firstShown = new Promise<void>((resolve) => (shown = resolve));
    const chunks: Reply["chunks"] = [
      event(textChunk("第一句🙂，")),
      { until: firstShown.then(() => order.push("server: rest")) },
      event(textChunk("第二句。")),
      event(finishChunk("stop")),
      DONE,
    ];
    return withServer(
      () => ({ chunks }),
      async (server) => {
        const read = readLiveConfig({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m", [ENV.timeoutMs]: "1500" });
        if (!read.ok) throw new Error(read.problems.join("\n"));
        const io = liveIO({}, {
          stdout: {
            write: (text) => {
              order.push(`stdout: ${text}`);
              if (text.includes("第一句")) shown();
            },
          },
        });
        const reply = await runOneTurn(makeAgent(read.config, io), "说两句");
        return { order, reply };
      },
    );
  }

  it("第一句在服务器送出第二句之前就上了 stdout；整段只打一次", async () => {
    const { order, reply } = await gated((config, io) => createLiveAgent(config, io).agent);
    expect(reply).toEqual({ role: "assistant", content: "第一句🙂，第二句。", stopReason: "stop" });
    expect(order).toEqual(["stdout: 第一句🙂，", "server: rest", "stdout: 第二句。", "stdout: \n"]);
  });

  it("检查本身会失败：换回课里一轮结束才打的 PrintMode，第一句等不来，服务器一直等到空闲超时", async () => {
    const { order, reply } = await gated((config, io) => ({
      ...createLiveAgent(config, io).agent,
      provider: new OpenAICompatibleProvider(config),
      mode: new PrintMode({ log: (line) => io.stdout.write(`${line}\n`) }),
    }));
    expect(reply.stopReason).toBe("error");
    // 第一句要等到一轮（因超时）结束才打出来，服务器这时才放行，已经晚了
    expect(order).toEqual(["stdout: 第一句🙂，\nerror: request timed out: nothing arrived for 1500 ms (raise MINI_PI_TIMEOUT_MS for slow models)\n", "server: rest"]);
  });

  it("字节任意切开送来：stdout 上的文字一样，从不重复（fast-check）", async () => {
    const bytes = utf8(textAnswer(["一🙂", "二", "三。"]));
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst(() => ({ chunks })));
    expect(whole.stdout).toBe("一🙂二三。\n");
  });
});

describe("8. 文档里的命令和表都和代码对得上：npm run -s live 的 stdout 一字不差就是回答", () => {
  const liveReadme = readFileSync(join(ROOT, "live", "README.md"), "utf8");
  const rootReadme = readFileSync(join(ROOT, "README.md"), "utf8");
  /** 根 README 里「对接真实模型」那一节。 */
  const rootSection = rootReadme.slice(rootReadme.indexOf("## 对接真实模型"), rootReadme.indexOf("\n## ", rootReadme.indexOf("## 对接真实模型") + 1));
  /** 以 header 这一行开头的 Markdown 表，去掉表头和分隔行，每行拆成一格格。 */
  const table = (text: string, header: string): string[][] => {
    const lines = text.split("\n");
    const start = lines.indexOf(header);
    expect(start, header).toBeGreaterThanOrEqual(0);
    const body: string[][] = [];
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith("|")) break;
      body.push(line.slice(1, -1).split("|").map((cell) => cell.trim()));
    }
    return body;
  };

  it("live/README.md 的变量表：变量、顺序、必填与否、默认值都和 config.ts 的 ENV、DEFAULTS 一致", () => {
    const variables = table(liveReadme, "| 变量 | 必填 | 默认 | 说明 |");
    expect(variables.map((row) => row[0])).toEqual(Object.values(ENV).map((name) => `\`${name}\``));
    for (const [key, name] of Object.entries(ENV)) {
      const [, required, fallback] = variables.find((row) => row[0] === `\`${name}\``) ?? [];
      if (key in DEFAULTS) {
        const value = DEFAULTS[key as keyof typeof DEFAULTS];
        expect([required, fallback], name).toEqual(["否", value === undefined ? "不限" : `\`${value}\``]);
      } else {
        expect([required === "否", fallback], name).toEqual([false, "—"]);
      }
    }
  });

  it("live/README.md 的退出码表：和 main.ts 的 EXIT 一一对应；根 README 那一节也提到了每个退出码和每个变量", () => {
    expect(table(liveReadme, "| 退出码 | 什么时候 |").map((row) => Number(row[0]))).toEqual(Object.values(EXIT));
    const sentence = rootSection.slice(rootSection.indexOf("退出码："));
    for (const code of Object.values(EXIT)) expect(sentence, `exit ${code}`).toMatch(new RegExp(`(^|[^\\d])${code} `, "m"));
    for (const name of Object.values(ENV)) expect(rootSection, name).toContain(`\`${name}\``);
  });

  it("文档和程序给的命令都带 -s（不带的话 npm 的横幅会混进 stdout）", () => {
    const commands = [liveReadme, rootSection, [USAGE, ...configHelp(["x"])].join("\n")].join("\n");
    expect(commands).toContain("npm run -s live --");
    expect(commands).not.toMatch(/npm run live/);
    expect(commands).not.toMatch(/run live --/);
  });

  it(
    "真的用 npm 跑：npm run -s live 的 stdout 一字不差是回答；去掉 -s，npm 的横幅就混了进去（检查本身会失败）",
    async () => {
      await withServer(
        () => ({ chunks: [textAnswer(["只有", "回答🙂。"])] }),
        async (server) => {
          const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model" };
          const npm = (args: string[]) => promisify(execFile)("npm", ["--prefix", ROOT, ...args], { cwd: work, env });
          const silent = await npm(["run", "-s", "live", "--", "问一下"]);
          expect(silent.stdout).toBe("只有回答🙂。\n");
          expect(silent.stderr).toContain(`工作目录 ${work}`); // INIT_CWD 找回了敲命令的目录
          const loud = await npm(["run", "live", "--", "问一下"]);
          expect(loud.stdout).toContain("> learn-pi-agent@0.1.0 live");
          expect(loud.stdout).not.toBe(silent.stdout);
        },
      );
    },
    60_000,
  );
});
