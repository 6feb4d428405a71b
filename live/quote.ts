// 引用服务器给的不可信文字：错误正文里挑出给人看的那句话、引一段坏数据。都先打码再截短（redact.ts），
// 密钥跨在截断处也一截不漏。
import { z } from "zod";
import { maskSecret, shorten } from "./redact.ts";

/** 服务器报错的几种写法：{error: {message}}、{error: "…"}、{message}、{detail}。 */
const ErrorBodySchema = z.union([
  z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) }),
  z.object({ message: z.string() }),
  z.object({ detail: z.string() }),
]);

/** 错误说明里最多引多少个字符的服务器原话。 */
export const ERROR_TEXT_CHARS = 300;
/** 引一段坏数据（不是 JSON 的 data 行、不成形的工具参数）最多引多少个字符。 */
export const EXCERPT_CHARS = 120;

/**
 * 从服务器的错误正文里挑出给人看的那句话；挑不出就用正文本身（压成一行，截短）。
 * 先打码再做别的：服务器的错误页常常回显请求头，密钥要是跨在截断处，先截就只剩半截，认不出来了。
 */
export function serverErrorText(body: string, secret?: string): string {
  const masked = maskSecret(body, secret);
  let parsed: unknown;
  try {
    parsed = JSON.parse(masked);
  } catch {
    parsed = undefined;
  }
  const known = ErrorBodySchema.safeParse(parsed);
  let text = masked;
  if (known.success) {
    const data = known.data;
    text = "error" in data ? (typeof data.error === "string" ? data.error : data.error.message) : "message" in data ? data.message : data.detail;
  }
  text = maskSecret(text, secret).replace(/\s+/g, " ").trim(); // JSON 里转义过的密钥，解出来以后再打一遍
  if (text === "") return "(no error text)";
  return shorten(text, ERROR_TEXT_CHARS);
}

/** 引一段不可信的文字：先打码，再截短，再加引号（JSON 转义让换行、控制字符都看得见）。 */
export function excerpt(text: string, secret?: string): string {
  const chars = [...maskSecret(text, secret)];
  const quoted = JSON.stringify(chars.slice(0, EXCERPT_CHARS).join(""));
  return chars.length > EXCERPT_CHARS ? `${quoted}…` : quoted;
}

