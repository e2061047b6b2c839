/**
 * Passwords nobody should use: about 1,200 of the most common passwords in public breach lists
 * (the top of the lists that SecLists, "rockyou" and NordPass publish: 123456, password, qwerty,
 * keyboard walks, repeated digits, names, football clubs, "senha123" and other Brazilian and
 * Portuguese favourites, year and symbol variants such as "Password@123"). Only those of at least
 * six characters are kept: shorter passwords are refused by the length rule anyway.
 *
 * Compared in NFKC and lower case, as passwords are hashed in NFKC: "PASSWORD1" and "Ｐａｓｓｗｏｒｄ1"
 * are refused as "password1" is. Sign-up, password change and reset refuse them (auth.passwordTooCommon).
 * Kept as a module (not a data file) so the build carries it into server/dist with no copy step.
 */
let known: Set<string> | undefined;

/** True when `password` is on the list (the set is built once, at the first call). */
export function isCommonPassword(password: string): boolean {
  known ??= new Set(COMMON_PASSWORDS.split(/\s+/).filter(Boolean));
  return known.has(password.normalize('NFKC').toLowerCase());
}

/** The list, lower case, separated by spaces and line breaks. */
const COMMON_PASSWORDS = `
123456 123456789 12345678 1234567 1234567890 password qwerty 111111 123123 abc123 000000
iloveyou dragon monkey password1 qwerty123 1q2w3e4r 654321 555555 lovely 7777777 888888 princess
welcome 666666 123qwe sunshine football baseball shadow master superman michael jennifer jordan
jordan23 harley hunter hunter2 ranger buster soccer hockey killer george charlie andrew michelle
daniel thomas jessica ashley bailey letmein trustno1 passw0rd p@ssw0rd p@ssword pa55word pass123
password12 password123 password1234 admin123 admin1234 administrator root123 qazwsx qazwsxedc
1qaz2wsx 1qaz2wsx3edc zaq12wsx zaq1zaq1 !qaz2wsx qwertyuiop asdfghjkl zxcvbnm asdfgh asdf1234
zxcvbn qwerty1 qwerty12 qwe123 qweasd qweasdzxc 1q2w3e 1q2w3e4r5t 1q2w3e4r5t6y q1w2e3r4
q1w2e3r4t5 a1b2c3 a1b2c3d4 abcdef abcd1234 abc12345 abcdefg abcdefgh aaaaaa aaaaaaaa asdasd
asdasdasd qwerty1234 qwertyui 1qazxsw2 123abc 123qweasd 123qweasdzxc password! welcome1
welcome123 changeme changeme123 letmein1 secret default guest123 login123 test123 test1234
testing testing123 temp123 temporary user123 demo123 iloveyou1 iloveyou2 iloveu loveyou lovelove
loveme love123 mylove sweety sweetheart angel1 angels babygirl baby123 butterfly princess1
flower forever friends freedom whatever nothing computer internet samsung google iphone
blackberry starwars pokemon naruto batman spiderman matrix gandalf merlin mercedes ferrari
porsche corvette mustang yamaha harley1 chelsea liverpool arsenal manchester barcelona
realmadrid juventus yankees cowboys steelers lakers eagles dolphins chicago london newyork
america canada brasil brazil portugal mexico france jesus1 jesuscristo jesusteama christ blessed
heaven god123 godisgood pepper ginger cookie chocolate cheese banana orange summer winter spring
autumn august october november december january february monday friday sunday purple yellow
silver golden diamond tigger dragon1 monkey1 donald mickey minnie snoopy garfield scooby bubbles
buttercup cherry jasmine nicole daniela amanda andrea samantha melissa patricia jonathan joshua
anthony william matthew robert richard joseph charles christopher justin brandon hannah maggie
sophie jackson jasper oliver austin dallas boston phoenix london1 access access14 master1
mastermind shadow1 superman1 batman1 football1 baseball1 soccer1 hockey1 basketball tennis
golfer hello1 hello123 helloworld hellokitty trustme secret1234 private passport password2
password01 pass1234 passpass passwd mypassword mypass mypass123 nopassword thisisit zaq123
qwaszx qazxsw zxcv1234 zxc123 zxcvbnm1 poiuytrewq lkjhgfdsa mnbvcxz fuckyou fuckyou1 fuckoff
asshole bitch1 shit123 sexy123 696969 12341234 11111111 111111111 1111111111 11223344 112233
121212 123321 123654 123654789 147258 147258369 147852 147852369 159753 159357 159951 741852
741852963 753951 789456 789456123 963852 963852741 987654 987654321 9876543210 0123456789 012345
456789 456123 102030 10203040 101010 202020 112211 131313 232323 252525 777777 999999 222222
333333 444444 1111111 0000000 00000000 12344321 123456a 123456q a123456 q123456 123456abc a12345
aa123456 aa12345678 abc123456 1234qwer qwer1234 1234abcd 1a2b3c 1a2b3c4d asd123 asdf123 qwe12345
1234567a 12345a 12345q 12345qwert 123456qwerty qwerty123456 password12345 123456789a a123456789
987654321a 1234512345 123456123456 5201314 520520 woaini woaini1314 iloveyou123 senha1 senha12
senha123 senha1234 senha12345 senha123456 minhasenha minhasenha123 mudar123 mudar@123 mudarsenha
trocar123 trocarsenha acesso acesso123 acesso01 entrar entrar123 admin@123 teste1 teste12
teste123 teste1234 teste@123 brasil123 brasil2014 brasil10 brasileiro brasileira flamengo
flamengo1 flamengo123 corinthians corinthians1 corinthians123 palmeiras palmeiras1 palmeiras123
saopaulo saopaulo1 saopaulo123 santos santos123 vascodagama vasco123 gremio gremio123
internacional inter123 cruzeiro cruzeiro123 atletico botafogo botafogo123 fluminense bahia123
sport123 vitoria vitoria123 timao123 mengao mengo123 palmeiras10 neymar neymar10 neymarjr
ronaldo ronaldinho ronaldo9 pele10 kaka10 cristiano cristiano7 messi10 amor123 amorzinho amormeu
meuamor meuamor123 teamo123 teamomuito teamo1 eusouvoce euteamo euteamo123 benfica sporting
porto123 futebol futebol10 futebol123 deusefiel deusefiel123 deuseamor deusmeama deus123
jesusteama123 jesuseamor jesus123 jesuscristo123 gabriel gabriel123 rafael rafael123 lucas123
matheus matheus123 mateus123 pedro123 joao123 joaopedro joaovitor guilherme guilherme123 gustavo
gustavo123 felipe felipe123 bruno123 rodrigo rodrigo123 leonardo leonardo123 fernando fernanda
fernanda123 juliana juliana123 camila camila123 amanda123 beatriz beatriz123 larissa larissa123
leticia leticia123 mariana mariana123 gabriela gabriela123 carolina carolina123 bruna123
jessica123 vanessa vanessa123 patricia123 adriana adriana123 daniela123 aline123 natalia
natalia123 isabela isabella julia123 maria123 mariaclara mariaeduarda anaclara anajulia josefa
josefa123 francisco antonio antonio123 jose123 joaquim marcelo marcelo123 carlos carlos123
eduardo eduardo123 ricardo ricardo123 paulo123 sergio roberto roberta alexandre anderson
andre123 thiago thiago123 tiago123 vinicius vinicius123 victor123 vitor123 diego123 douglas
renato renata fabio123 leandro cristina cristiane simone sandra silvana luciana claudia claudio
marcos marcos123 mario123 manuel manuela familia familia123 familia10 minhafamilia felicidade
saudade paixao carinho princesa princesa123 gatinha gatinho gatinha123 bonita bonito lindinha
lindinho linda123 lindo123 querida querido docinho florzinha estrela estrelinha borboleta
anjinho anjo123 beijinho beleza sucesso vitoria10 liberdade esperanca abacaxi morango
chocolate123 banana123 batata pipoca cachorro cachorro123 gatinho123 macaco macaco123 tartaruga
passarinho brasilia riodejaneiro salvador fortaleza recife curitiba goiania manaus belem123
natal123 floripa campinas sorocaba piracicaba santos10 sertanejo pagode samba123 capoeira
carnaval cerveja cachaca skol123 brahma churrasco abcd123 abc1234 aaa111 aaa123 abc123abc
123mudar mudar1234 123senha senha@123 senha#123 senha01 senha2020 senha2021 senha2022 senha2023
senha2024 senha2025 admin2020 admin2021 admin2022 admin2023 admin2024 admin2025 password2020
password2021 password2022 password2023 password2024 password2025 welcome2020 welcome2021
welcome2022 welcome2023 welcome2024 welcome2025 summer2020 summer2021 summer2022 summer2023
summer2024 summer2025 winter2020 winter2021 winter2022 winter2023 winter2024 winter2025
spring2023 spring2024 autumn2023 autumn2024 january2024 qwerty2024 123456789012 1234567891
12345678910 1234567899 123456780 1234567809 12345679 123456987 123457 12345689 1234566 1234568
123465 123455 987654321q qwerty7 qwerty11 qwerty01 qwerty21 qwertyqwerty asdfasdf asdfghjk
qweqwe qweqweqwe asdasd123 qwe123qwe zxczxc 1234asdf asdf4321 qwerasdf qwertyu mnbvcxz1 aaaaaaa
aaaaaaaaa abababab ababab azerty azertyuiop azerty123 qwertz qwertz123 ytrewq zxcvbnm123 !@#$%^
!@#$%^&* 1qaz@wsx 1qaz!qaz !qaz@wsx 1q2w3e4r5 q1w2e3 q1w2e3r4t5y6 zaq!xsw2 zaq1xsw2 1qazxsw23edc
qazwsx123 qazwsxedc123 password!123 p@$$w0rd passw0rd1 pa$$word pa$$w0rd p455w0rd p4ssw0rd
passwort passwort1 motdepasse contrasena contraseña contrasenha parola wachtwoord lösenord
salasana jelszo kennwort 1234qwerty qwerty12345 qwerty1234567 123qwe123 123qwe!@# abc!@# abc@123
test@123 admin@1234 root@123 user@123 pass@123 pass@word1 password@123 welcome@123 india123
india@123 pakistan pakistan123 bangladesh nigeria kenya123 philippines indonesia malaysia
vietnam thailand 123456789q q1234567 q12345678 qwerty123! qwerty! qwerty!@# qwerty1! password1!
password12! password123! p@ssword1 p@ssw0rd1 p@ssw0rd123 passw0rd! aa123456789 abc123!
letmein123 letmein! trustno1! whatever1 sunshine1 princess123 football123 baseball123 monkey123
dragon123 shadow123 master123 superman123 batman123 michael1 michael123 jordan1 jordan123
charlie1 charlie123 thomas1 thomas123 jessica1 ashley1 ashley123 daniel1 daniel123 andrew1
andrew123 nicole1 nicole123 hannah1 maggie1 tigger1 tigger123 cookie1 cookie123 pepper1
pepper123 ginger1 buster1 buster123 summer1 summer123 winter1 chelsea1 chelsea123 liverpool1
liverpool123 arsenal1 arsenal123 barcelona1 realmadrid1 manutd manunited manchesterunited
chelseafc juventus1 milan123 acmilan intermilan bayern dortmund galatasaray fenerbahce besiktas
pokemon1 pokemon123 naruto1 naruto123 minecraft minecraft1 minecraft123 fortnite fortnite1
roblox roblox123 playstation playstation2 playstation3 playstation4 xbox360 nintendo zelda123
sonic123 pikachu charizard starwars1 starwars123 skywalker vader123 spiderman1 ironman avengers
marvel123 superstar rockstar rockyou rocky123 rocky1 killer1 killer123 hunter1 hunter123 ranger1
soccer123 hockey123 tennis123 basketball1 volleyball softball cheerleader gymnastics dancer
dancing music123 musica musica123 guitar guitar123 piano123 singer drummer metallica nirvana
beatles eminem slipknot linkinpark greenday justinbieber onedirection beyonce rihanna shakira
madonna elvis123 marley bobmarley snoopdogg 50cent lilwayne drake123 computer1 computer123
internet1 laptop desktop windows windows7 windows10 microsoft linux123 ubuntu oracle oracle123
database server server123 network cisco123 system system123 manager manager123 office office123
company company123 business finance account account1 accounting support support123 service
service123 student student123 teacher teacher123 school school123 college university library
welcome01 welcome12 hello12 hello1234 hellohello goodbye goodluck goodgirl goodboy badboy
badgirl bigboy bigdaddy daddy123 mommy123 mother father sister brother family family1 family123
children mylife mylove1 lovelife loveyou1 loveyou2 love1234 lover1 loving darling honey123
honeybee sweet123 sweetie sugar123 candy123 cupcake muffin pumpkin peanut peaches strawberry
blueberry rainbow unicorn sparkle glitter kitty123 kitten puppy123 doggie snowball snowflake
smokey bandit lucky123 lucky1 lucky7 lucky13 gemini scorpio taurus aquarius capricorn
sagittarius pisces cancer leo123 phoenix1 thunder lightning hurricane tornado blizzard dragonfly
eagle1 falcon hawkeye panther jaguar leopard cheetah wolfpack wolf123 bear123 lion123 tiger123
shark123 spider scorpion cobra123 python king123 queen123 kingkong prince princesa1 diamond1
crystal ruby123 emerald sapphire golden1 silver1 platinum money1 money123 cash123 dollar rich123
million billion bitcoin crypto trading casino blackjack lottery winner winner1 champion victory
success1 power123 energy matrix1 neo123 trinity morpheus hacker hacked h4ck3r qwertyuiop1
asdfghjkl1 zaq12wsxcde 1z2x3c4v z1x2c3v4 a1s2d3f4 1a2s3d4f q1a2z3 1qa2ws3ed
`;
