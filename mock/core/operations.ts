/** The two operations of the spec, by their OpenAPI operationIds (openapi/document.ts). */
export const operations = ['fetchHumanEvaluation', 'createEvaluation'] as const;
export type Operation = (typeof operations)[number];

export function isOperation(value: string): value is Operation {
  return (operations as readonly string[]).includes(value);
}
