-- Issue 38: the demo data's Arabic as written in Beirut, and the titles each language's customers
-- expect. The seed only inserts what is missing, so a database seeded before keeps the old texts;
-- as 0013 did, this rewrites each one only where it still holds the text the seed gave it (a text
-- the broker changed stays theirs), and adds the new titles in their place in the list.
UPDATE "master_items" SET "name_ar" = 'السيدة' WHERE "kind" = 'prefex' AND "id" = 2 AND "name_ar" = 'السيدة (متزوجة)';--> statement-breakpoint
UPDATE "master_items" SET "name_ar" = 'السيدة / الآنسة' WHERE "kind" = 'prefex' AND "id" = 3 AND "name_ar" = 'السيدة';--> statement-breakpoint
UPDATE "master_items" SET "sort" = 4 WHERE "kind" = 'prefex' AND "id" = 4 AND "sort" = 3;--> statement-breakpoint
UPDATE "master_items" SET "sort" = 5 WHERE "kind" = 'prefex' AND "id" = 5 AND "sort" = 4;--> statement-breakpoint
INSERT INTO "master_items" ("kind", "id", "name_en", "name_ar", "sort") VALUES ('prefex', 6, 'Miss', 'الآنسة', 3), ('prefex', 7, 'Miss (child)', 'الطفلة', 6) ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "master_items" SET "name_ar" = 'المسافر الرئيسي (أنا)' WHERE "kind" = 'relation_types' AND "id" = 5 AND "name_ar" = 'المؤمَّن الرئيسي (أنا)';--> statement-breakpoint
UPDATE "plans" SET "name_ar" = 'Worldwide Plus' WHERE "id" = 102 AND "name_ar" = 'العالمية بلس';--> statement-breakpoint
UPDATE "plans" SET "coverage_name_ar" = 'Plus' WHERE "id" = 102 AND "coverage_name_ar" = 'بلس';--> statement-breakpoint
UPDATE "plan_features" SET "label_ar" = 'المسؤولية المدنية الشخصية' WHERE "key" = 'liability' AND "label_ar" = 'المسؤولية الشخصية';--> statement-breakpoint
UPDATE "plan_features" SET "value_ar" = regexp_replace("value_ar", '([0-9][0-9,]*) دولار أمريكي', '$\1', 'g') WHERE "value_ar" ~ '^(مشمولة حتى )?[0-9][0-9,]* دولار أمريكي( يوميًا، حتى 10 أيام)?$';--> statement-breakpoint
UPDATE "insurers" SET "name_ar" = 'الأرز للتأمين التعاوني (تجريبي)' WHERE "id" = 7 AND "name_ar" = 'سيدر ميوتشوال (تجريبي)';--> statement-breakpoint
UPDATE "company_info" SET "name" = 'Safar سفر لوساطة التأمين (تجريبي)' WHERE "lang" = 'ar' AND "name" = '«سفر» لوساطة التأمين (تجريبي)';
