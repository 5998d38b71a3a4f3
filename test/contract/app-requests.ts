/** A create request as a frontend sends it, with its own provider key: for the tests that record and replay traffic. */
export function appCreateBody(providerKey: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    app_id: '6637c0a25368ef07b03a64a0',
    variant_ids: ['6637c0a25368ef07b03a64b1'],
    evaluators_configs: ['6637c0a25368ef07b03a64d1'],
    testset_id: '6637c0a25368ef07b03a64e0',
    rate_limit: { batch_size: 10, max_retries: 3, retry_delay: 3, delay_between_batches: 5 },
    lm_providers_keys: { OPENAI_API_KEY: providerKey },
    ...extra,
  };
}
