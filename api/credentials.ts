import { declaredProperties } from '../schemas/index.js';

/** The create request field whose values are credentials (spec §4.2: "it is never echoed"). */
export const credentialField = 'lm_providers_keys';
if (!declaredProperties('CreateEvaluationRequest').includes(credentialField)) {
  throw new Error(`the create request schema no longer declares ${credentialField}`);
}
