// 真实模型模式（live/）的测试：provider 本身。SSE 解码、发出去的请求和收回来的事件，
// 以及 R4：HTTP、流、JSON、超时、喊停、连不上，每种失败都变成一条说清原因的助手消息。
// 全部离线：模型由一个只听 127.0.0.1 的回放服务器扮演，字节可以在任意位置切开（包括一个 UTF-8 字符中间、"data:" 中间）。
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseDecoder, type SseMessage } from "../../live/sse.ts";
import { type ProviderEvent, collectAssistantMessage } from "../../s12_packages/code.ts";
import { DONE, type ServerReply, event, finishChunk, splitAt, startReplayServer, textAnswer, textChunk, toolChunk } from "./replay-server.ts";
import { HandClock, INPUT, KEY, TOOL_ANSWER, TOOL_EVENTS, allEvents, answer, concatBytes, forcedCuts, providerFor, sameUnderSplits, silentAfterFirstText, utf8, withServer } from "./support.ts";

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
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): ServerReply => ({
    status,
    headers: { "content-type": "application/json", ...headers },
    chunks: [JSON.stringify(body)],
  });
  const cases: Array<[string, ServerReply, string]> = [
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
  const bodyBytes = (reply: ServerReply): Uint8Array => concatBytes(reply.chunks);
  const isStream = (reply: ServerReply): boolean => (reply.status ?? 200) === 200 && (reply.headers?.["content-type"] ?? "text/event-stream") === "text/event-stream";
  /** 正文里没有多字节字符的，前面垫一段带中文和 emoji 的文字，好让切点能落进一个字符中间；整块和切开两次跑的是同一段字节。 */
  const MULTIBYTE_LEAD = event(textChunk("先说🙂，"));
  const splitCases = cases
    .filter(([, reply]) => isStream(reply) && reply.silent !== true)
    .map(([name, reply, expected]): [string, ServerReply, string] => [name, bodyBytes(reply).some((b) => b >= 0x80) ? reply : { ...reply, chunks: [MULTIBYTE_LEAD, ...reply.chunks] }, expected]);
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
        // 假表：收到「开了个头」之后正好拨过 300 毫秒。真的时间走的那条路由上面「等不到响应头」测
        const clock = new HandClock();
        const provider = providerFor(server, { timeoutMs: 300, timers: clock });
        const message = await collectAssistantMessage(silentAfterFirstText(provider.stream(INPUT), clock, 300));
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
