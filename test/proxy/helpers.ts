/** What a client gets back, whole: status, the headers a proxy must not touch, and the exact bytes. */
export async function answer(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url, init);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

export function postJson(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
