-- Built-in catalogue (docs/api-catalogue.md): four espeak-ng voices (two pt, two en) and two complete
-- prompts in pt and en, so a new user can create a process at once. Fixed ids; admins may edit or
-- delete them like any other. Texts use dollar quoting ($t$...$t$), so apostrophes need no escaping.
INSERT INTO "voices" ("id", "name", "type", "sample_url", "description", "language", "gender", "provider", "provider_voice_id", "is_active", "created_at", "updated_at") VALUES
('387bfe25-192a-4eb3-aa8b-be1f9e202b9a', $t$Helena$t$, $t$Narradora$t$, '/api/v1/voice-samples/387bfe25-192a-4eb3-aa8b-be1f9e202b9a.wav',
 $t$Voz feminina em português do Brasil, clara e acolhedora, para narrações calmas. Sintetizada no próprio servidor pelo espeak-ng.$t$,
 'pt', 'female', 'espeak', 'pt-br+f3', true, now() - interval '4 seconds', now() - interval '4 seconds'),
('0954c0b6-19e2-4eec-90dd-977441a80dfb', $t$Rafael$t$, $t$Narrador$t$, '/api/v1/voice-samples/0954c0b6-19e2-4eec-90dd-977441a80dfb.wav',
 $t$Voz masculina em português do Brasil, firme e serena, para histórias de suspense e drama. Sintetizada no próprio servidor pelo espeak-ng.$t$,
 'pt', 'male', 'espeak', 'pt-br+m3', true, now() - interval '3 seconds', now() - interval '3 seconds'),
('170b0db9-cade-4eac-98a5-68d05603e946', $t$Emma$t$, $t$Narrator$t$, '/api/v1/voice-samples/170b0db9-cade-4eac-98a5-68d05603e946.wav',
 $t$Female American English voice, clear and friendly, for calm storytelling. Spoken on this server by espeak-ng.$t$,
 'en', 'female', 'espeak', 'en-us+f3', true, now() - interval '2 seconds', now() - interval '2 seconds'),
('38d13074-efa0-4ae9-b005-11cbc42338c4', $t$James$t$, $t$Narrator$t$, '/api/v1/voice-samples/38d13074-efa0-4ae9-b005-11cbc42338c4.wav',
 $t$Male American English voice, steady and warm, for suspense and drama. Spoken on this server by espeak-ng.$t$,
 'en', 'male', 'espeak', 'en-us+m3', true, now() - interval '1 second', now() - interval '1 second');
--> statement-breakpoint
INSERT INTO "prompts" ("id", "user_id", "name", "description", "content", "category", "is_active", "created_at", "updated_at") VALUES
('5ebd8341-10e8-4ab7-85f4-5694d6a6f88b', NULL, $t$Segredos de Família$t$,
 $t$Dramas psicológicos sobre segredos guardados por anos dentro de uma família e o que acontece quando a verdade vem à tona.$t$,
 $t$Histórias realistas e emocionais, narradas em terceira pessoa, sobre famílias comuns cujas relações são abaladas por um segredo do passado: uma herança escondida, um parente desconhecido, uma carta nunca enviada, uma promessa quebrada. O foco está nos conflitos internos, na culpa, no perdão e na reconstrução dos laços. Tom intimista, tensão emocional crescente e um final que resolve o segredo central de forma coerente e marcante.$t$,
 'drama_psicologico', true, now(), now()),
('2a3c5896-f5e9-46df-8603-a72d64833249', NULL, $t$Mistérios da Cidade Pequena$t$,
 $t$Histórias de suspense em cidades pequenas onde todos se conhecem, até que um acontecimento inexplicável revela o que os moradores escondem.$t$,
 $t$Histórias de suspense narradas em terceira pessoa, ambientadas em cidades pequenas e aparentemente tranquilas. Um desaparecimento, uma mensagem anônima ou um crime antigo reaberto obriga a protagonista ou o protagonista a investigar vizinhos, amigos e a própria família. Pistas plantadas com cuidado, suspeitos plausíveis, atmosfera tensa e uma revelação final surpreendente, mas justa, que se explica pelas pistas apresentadas ao longo da história. Sem violência gráfica.$t$,
 'suspense', true, now() - interval '1 second', now() - interval '1 second');
--> statement-breakpoint
INSERT INTO "prompt_languages" ("prompt_id", "language", "title", "premise", "narrative_prompt", "chapter_1", "next_chapters", "final_chapter") VALUES
('5ebd8341-10e8-4ab7-85f4-5694d6a6f88b', 'pt',
 $t$Crie um título original, curto e marcante (no máximo 8 palavras), em {language}, para uma história de drama psicológico sobre um segredo de família. O título deve despertar curiosidade sem revelar o desfecho. Não repita nem imite estes títulos já usados: {previous_titles}. Responda apenas com o título, sem aspas nem explicações.$t$,
 $t$Escreva, em {language}, a premissa da história "{title}" em 2 a 3 frases. Apresente o protagonista, o segredo de família que vem à tona e o conflito emocional que ele provoca. Mantenha um tom de drama psicológico realista e contemporâneo. Responda apenas com a premissa.$t$,
 $t$Você é um roteirista especializado em histórias narradas para o YouTube. Escreva sempre em {language}, em prosa fluida, pensada para ser lida em voz alta por um narrador: frases claras, ritmo envolvente, sem listas, títulos, marcações de cena, emojis ou instruções técnicas. Gênero: drama psicológico sobre segredos de família. Explore os pensamentos, as dúvidas e as contradições dos personagens, construa a tensão emocional aos poucos e mostre as consequências das escolhas de cada um. Mantenha nomes, fatos, lugares e a linha do tempo coerentes entre os capítulos. Evite violência gráfica, conteúdo sexual explícito e discurso de ódio, para que o vídeo respeite as diretrizes da plataforma.$t$,
 $t$Escreva o capítulo {chapter_number} de {total_chapters} da história "{title}".
Premissa: {premise}

Este é o capítulo de abertura: apresente o protagonista, a família e o ambiente em que vivem, e mostre o primeiro indício de que algo importante foi escondido durante anos. Comece com uma cena que prenda a atenção logo nas primeiras frases e termine com um gancho que faça o ouvinte querer continuar. Escreva cerca de 250 palavras, somente o texto narrado, sem título de capítulo.$t$,
 $t$Escreva o capítulo {chapter_number} de {total_chapters} da história "{title}".
Premissa: {premise}
Resumo do que aconteceu até agora: {summary}

Continue exatamente de onde a história parou, sem repetir o que já foi contado. Revele uma nova camada do segredo, aprofunde o conflito interior do protagonista e a tensão entre os familiares, sem resolver tudo ainda. Termine com um gancho para o próximo capítulo. Escreva cerca de 250 palavras, somente o texto narrado, sem título de capítulo.$t$,
 $t$Escreva o capítulo final ({chapter_number} de {total_chapters}) da história "{title}".
Premissa: {premise}
Resumo do que aconteceu até agora: {summary}

Conduza o confronto decisivo em que o segredo é revelado por completo e resolva os conflitos principais de forma emocionalmente satisfatória e coerente com tudo o que aconteceu. Encerre com uma breve reflexão sobre o que os personagens aprenderam e uma frase final marcante. Escreva cerca de 250 palavras, somente o texto narrado, sem título de capítulo.$t$),
('5ebd8341-10e8-4ab7-85f4-5694d6a6f88b', 'en',
 $t$Create an original, short and striking title (8 words at most), in {language}, for a psychological drama about a family secret. The title should spark curiosity without giving away the ending. Do not repeat or imitate these titles already used: {previous_titles}. Answer with the title only, without quotation marks or explanations.$t$,
 $t$Write, in {language}, the premise of the story "{title}" in 2 to 3 sentences. Introduce the main character, the family secret that comes to light and the emotional conflict it causes. Keep the tone of a realistic, contemporary psychological drama. Answer with the premise only.$t$,
 $t$You are a screenwriter who specialises in narrated stories for YouTube. Always write in {language}, in flowing prose meant to be read aloud by a narrator: clear sentences, an engaging rhythm, and no lists, headings, stage directions, emojis or technical notes. Genre: psychological drama about family secrets. Explore the characters' thoughts, doubts and contradictions, build the emotional tension step by step and show the consequences of each person's choices. Keep names, facts, places and the timeline consistent across chapters. Avoid graphic violence, explicit sexual content and hate speech, so that the video respects the platform's guidelines.$t$,
 $t$Write chapter {chapter_number} of {total_chapters} of the story "{title}".
Premise: {premise}

This is the opening chapter: introduce the main character, the family and the place they live in, and show the first sign that something important has been hidden for years. Open with a scene that grabs the listener's attention in the very first sentences and end with a hook that makes them want to keep listening. Write about 250 words, only the narrated text, without a chapter title.$t$,
 $t$Write chapter {chapter_number} of {total_chapters} of the story "{title}".
Premise: {premise}
Summary of the story so far: {summary}

Continue exactly where the story left off, without repeating what has already been told. Reveal a new layer of the secret and deepen the main character's inner conflict and the tension within the family, without resolving everything yet. End with a hook for the next chapter. Write about 250 words, only the narrated text, without a chapter title.$t$,
 $t$Write the final chapter ({chapter_number} of {total_chapters}) of the story "{title}".
Premise: {premise}
Summary of the story so far: {summary}

Lead to the decisive confrontation in which the secret is fully revealed, and resolve the main conflicts in a way that is emotionally satisfying and consistent with everything that has happened. Close with a brief reflection on what the characters have learned and a memorable final sentence. Write about 250 words, only the narrated text, without a chapter title.$t$),
('2a3c5896-f5e9-46df-8603-a72d64833249', 'pt',
 $t$Crie um título original, curto e intrigante (no máximo 8 palavras), em {language}, para uma história de suspense ambientada em uma cidade pequena. O título deve sugerir um mistério sem revelar a solução. Não repita nem imite estes títulos já usados: {previous_titles}. Responda apenas com o título, sem aspas nem explicações.$t$,
 $t$Escreva, em {language}, a premissa da história de suspense "{title}" em 2 a 3 frases. Apresente o protagonista, a cidade pequena, o acontecimento misterioso que quebra a rotina e o que está em jogo se a verdade não for descoberta. Responda apenas com a premissa.$t$,
 $t$Você é um roteirista especializado em histórias de suspense narradas para o YouTube. Escreva sempre em {language}, em prosa fluida, pensada para ser lida em voz alta por um narrador: frases claras, ritmo tenso, sem listas, títulos, marcações de cena, emojis ou instruções técnicas. Crie atmosfera com detalhes concretos da cidade e dos moradores, distribua pistas de forma justa, apresente suspeitos plausíveis e mantenha o ouvinte tentando adivinhar. Mantenha nomes, fatos, lugares, pistas e a linha do tempo coerentes entre os capítulos; toda revelação precisa ser explicada pelo que foi contado antes. Evite violência gráfica, conteúdo sexual explícito e discurso de ódio, para que o vídeo respeite as diretrizes da plataforma.$t$,
 $t$Escreva o capítulo {chapter_number} de {total_chapters} da história "{title}".
Premissa: {premise}

Este é o capítulo de abertura: apresente o protagonista e a cidade pequena onde todos se conhecem, e mostre o acontecimento misterioso que muda tudo. Comece com uma cena inquietante que prenda a atenção logo nas primeiras frases, plante a primeira pista e termine com um gancho que faça o ouvinte querer continuar. Escreva cerca de 250 palavras, somente o texto narrado, sem título de capítulo.$t$,
 $t$Escreva o capítulo {chapter_number} de {total_chapters} da história "{title}".
Premissa: {premise}
Resumo do que aconteceu até agora: {summary}

Continue exatamente de onde a história parou, sem repetir o que já foi contado. O protagonista descobre uma nova pista, um suspeito ganha ou perde força e o perigo aumenta, sem revelar ainda a solução. Termine com uma reviravolta ou um gancho para o próximo capítulo. Escreva cerca de 250 palavras, somente o texto narrado, sem título de capítulo.$t$,
 $t$Escreva o capítulo final ({chapter_number} de {total_chapters}) da história "{title}".
Premissa: {premise}
Resumo do que aconteceu até agora: {summary}

Conduza o clímax em que o protagonista junta as pistas e revela a verdade. A solução deve surpreender, mas ser justa: explique-a pelas pistas apresentadas nos capítulos anteriores e resolva os conflitos principais. Encerre com uma cena final que devolva a calma à cidade, mas deixe uma última impressão marcante. Escreva cerca de 250 palavras, somente o texto narrado, sem título de capítulo.$t$),
('2a3c5896-f5e9-46df-8603-a72d64833249', 'en',
 $t$Create an original, short and intriguing title (8 words at most), in {language}, for a suspense story set in a small town. The title should hint at a mystery without revealing its solution. Do not repeat or imitate these titles already used: {previous_titles}. Answer with the title only, without quotation marks or explanations.$t$,
 $t$Write, in {language}, the premise of the suspense story "{title}" in 2 to 3 sentences. Introduce the main character, the small town, the mysterious event that breaks its routine and what is at stake if the truth is not uncovered. Answer with the premise only.$t$,
 $t$You are a screenwriter who specialises in suspense stories narrated on YouTube. Always write in {language}, in flowing prose meant to be read aloud by a narrator: clear sentences, a tense rhythm, and no lists, headings, stage directions, emojis or technical notes. Build atmosphere with concrete details of the town and its people, lay out clues fairly, present plausible suspects and keep the listener guessing. Keep names, facts, places, clues and the timeline consistent across chapters; every revelation must be explained by what was told before. Avoid graphic violence, explicit sexual content and hate speech, so that the video respects the platform's guidelines.$t$,
 $t$Write chapter {chapter_number} of {total_chapters} of the story "{title}".
Premise: {premise}

This is the opening chapter: introduce the main character and the small town where everybody knows everybody, and show the mysterious event that changes everything. Open with an unsettling scene that grabs the listener's attention in the very first sentences, plant the first clue and end with a hook that makes them want to keep listening. Write about 250 words, only the narrated text, without a chapter title.$t$,
 $t$Write chapter {chapter_number} of {total_chapters} of the story "{title}".
Premise: {premise}
Summary of the story so far: {summary}

Continue exactly where the story left off, without repeating what has already been told. The main character finds a new clue, a suspect becomes more or less likely and the danger grows, without revealing the solution yet. End with a twist or a hook for the next chapter. Write about 250 words, only the narrated text, without a chapter title.$t$,
 $t$Write the final chapter ({chapter_number} of {total_chapters}) of the story "{title}".
Premise: {premise}
Summary of the story so far: {summary}

Lead to the climax in which the main character puts the clues together and reveals the truth. The solution must be surprising but fair: explain it through the clues given in the earlier chapters and resolve the main conflicts. Close with a final scene that brings calm back to the town but leaves one last striking impression. Write about 250 words, only the narrated text, without a chapter title.$t$);
