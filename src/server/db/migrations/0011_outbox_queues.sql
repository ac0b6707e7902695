ALTER TABLE "mail_outbox" RENAME TO "outbox";--> statement-breakpoint
ALTER SEQUENCE "mail_outbox_id_seq" RENAME TO "outbox_id_seq";--> statement-breakpoint
ALTER TABLE "outbox" RENAME CONSTRAINT "mail_outbox_pkey" TO "outbox_pkey";--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "mail_outbox_message_id_unique";--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "mail_outbox_policy_id_policies_id_fk";
--> statement-breakpoint
DROP INDEX "mail_outbox_due_idx";--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "queue" text DEFAULT 'mail' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("queue","status","next_attempt_at");--> statement-breakpoint
ALTER TABLE "mail_log" ADD CONSTRAINT "mail_log_message_id_unique" UNIQUE("message_id");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_message_id_unique" UNIQUE("message_id");