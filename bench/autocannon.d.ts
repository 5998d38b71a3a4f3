// autocannon ships no types and @types/autocannon is not installed: the part the benchmark uses.
declare module 'autocannon' {
  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: RequestSpec) => RequestSpec;
  }
  export interface Options extends RequestSpec {
    url: string;
    connections?: number;
    amount?: number;
    duration?: number;
    requests?: RequestSpec[];
  }
  export interface Histogram {
    average: number;
    p99: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
