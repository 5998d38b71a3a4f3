/** The parts of an OpenAPI operation the tests read: its id, its request body's and responses' media types. */
interface MediaType {
  schema?: unknown;
  example?: unknown;
}
export type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
};
