// 测试用：一个只听 127.0.0.1 的 HTTP 服务器，按脚本回放录好样子的 Chat Completions 流式回答。
// 回答可以切成任意字节块逐块写出（块之间让出事件循环，客户端多半一块块收到），块之间还可以停一会儿、
// 或者等测试说「可以了」再接着写（测空闲超时、测边到边打），也可以写到一半掐断、一直不回（测超时），
// 或者回一个 HTTP 错误。它记下每个请求，测试拿来检查 provider 发出去的东西。
import { type IncomingHttpHeaders, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** 服务器收到的一个请求。 */
export type RecordedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: unknown };

/**
 * 两块之间停一下：停多少毫秒，或者等一个 promise 兑现。until 也可以是函数：写到这里才调用它，等它交出的 promise
 * （测试拿它拨一只假表：等客户端收到了前面的字节，再把假时间往前拨）。
 */
export type Pause = { waitMs: number } | { until: Promise<unknown> | (() => Promise<unknown>) };

/** 对一个请求怎么回。 */
export type ServerReply = {
  status?: number;
  headers?: Record<string, string>;
  /** 依次写出的字节块（字符串按 UTF-8），中间可以夹着停顿。 */
  chunks: Array<string | Uint8Array | Pause>;
  /** 写完 chunks 之后：end 正常结束（默认），cut 直接断开连接，hang 什么也不做、一直挂着。 */
  then?: "end" | "cut" | "hang";
  /** 连响应头都不发，一直挂着（测「等不到回应」的超时）。 */
  silent?: boolean;
};

export type ReplayServer = {
  /** 形如 http://127.0.0.1:PORT/v1，当 MINI_PI_BASE_URL 用。 */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
};

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function write(res: ServerResponse, reply: ServerReply): Promise<void> {
  if (reply.silent === true) return;
  res.writeHead(reply.status ?? 200, { "content-type": "text/event-stream", ...reply.headers });
  res.flushHeaders();
  for (const chunk of reply.chunks) {
    if (res.destroyed) return;
    if (typeof chunk === "string" || chunk instanceof Uint8Array) {
      res.write(chunk);
      await tick();
    } else if ("waitMs" in chunk) {
      await new Promise((resolve) => setTimeout(resolve, chunk.waitMs));
    } else {
      await (typeof chunk.until === "function" ? chunk.until() : chunk.until);
    }
  }
  const then = reply.then ?? "end";
  if (then === "end") res.end();
  else if (then === "cut") res.socket?.destroy();
}

/** 起服务器。script 收到第 n 个请求（从 0 数）时决定怎么回。 */
export async function startReplayServer(script: (request: RecordedRequest, n: number) => ServerReply): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // 留原文
      }
      const request: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      requests.push(request);
      void write(res, script(request, requests.length - 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ── 拼回答 ────────────────────────────────────────────────
/** 一个 chunk 对象写成一行 SSE。 */
export const event = (chunk: unknown): string => `data: ${JSON.stringify(chunk)}\n\n`;

export const DONE = "data: [DONE]\n\n";

/** 只带文字的一块。 */
export const textChunk = (text: string): unknown => ({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });

/** 工具调用的一块：第一块带 id 和名字，后面的只带参数片段。 */
export const toolChunk = (index: number, part: { id?: string; name?: string; arguments?: string }): unknown => ({
  choices: [
    {
      index: 0,
      delta: {
        tool_calls: [
          {
            index,
            ...(part.id === undefined ? {} : { id: part.id, type: "function" }),
            function: { ...(part.name === undefined ? {} : { name: part.name }), arguments: part.arguments ?? "" },
          },
        ],
      },
      finish_reason: null,
    },
  ],
});

/**
 * 只带思考过程的一块。DeepSeek 写 reasoning_content（同一块里 content 是 null），Ollama 写 reasoning。
 */
export const reasoningChunk = (text: string, field: "reasoning_content" | "reasoning" = "reasoning_content"): unknown => ({
  choices: [{ index: 0, delta: { content: null, [field]: text }, finish_reason: null }],
});

export const finishChunk = (reason: string): unknown => ({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });

/** 一段完整的文字回答：role 块、几段文字、finish_reason、[DONE]。 */
export function textAnswer(pieces: string[], finish = "stop"): string {
  return [event({ choices: [{ index: 0, delta: { role: "assistant", content: "" } }] }), ...pieces.map((p) => event(textChunk(p))), event(finishChunk(finish)), DONE].join("");
}

/** 一段字节在给定位置切开。 */
export function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    out.push(bytes.subarray(start, point));
    start = point;
  }
  return out;
}
