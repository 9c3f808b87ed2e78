/** GET /evaluation/{request_id}: the receipt of one of the project's evaluations. */
import type { EvaluationReceipt } from '../../api-types';
import { receiptOf } from '../../domain/evaluation/receipt';
import { NotFoundError } from '../../errors';
import type { Project } from '../../storage/repositories/projects';
import type { EvaluationContext } from './deps';

export async function receipt(ctx: EvaluationContext, project: Project, requestId: string): Promise<EvaluationReceipt> {
  const found = await ctx.receipts.find(project.id, requestId);
  if (!found) throw new NotFoundError('Evaluation', requestId);
  return receiptOf(found);
}
