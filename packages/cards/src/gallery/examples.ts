/**
 * @module Example queries shown in the gallery for each endpoint (first one also seeds the
 * builder form). Add an entry per endpoint; paths without an entry show their defaults.
 */
export const galleryExamples: Readonly<Record<string, readonly string[]>> = {
  '/typing': [
    'lines=Hello%2C+world!;I+build+fast+SVG+cards;Welcome+to+my+profile',
    'lines=npm+i+readme-cards&fontSize=16&cursor=_',
  ],
  '/text': ['text=Hello%2C+world!&animation=wave', 'text=Ship+it&animation=glitch&duration=4'],
  '/banner': [
    'title=Hi%2C+I%27m+Ada&subtitle=Compilers%2C+type+systems+and+fast+software&pattern=dots',
    'title=readme-cards&subtitle=SVG+cards+for+your+README&pattern=grid&alignment=left',
  ],
  '/badge': [
    'label=build&message=passing&color=success',
    'label=coverage&message=98%25&color=blue&style=flat-square',
    'label=release&message=v1.2.0&color=purple&style=for-the-badge&animation=shimmer',
  ],
  '/skills': [
    'skills=typescript,react,nodejs,docker,postgres,redis,git,linux&showLabels=true',
    'skills=rust,go,python,kubernetes,terraform&size=32',
  ],
  '/icon': ['name=github&size=48', 'name=linkedin&size=48', 'name=x&size=48', 'name=email&size=48'],
  '/quote': [
    'text=Programs+must+be+written+for+people+to+read%2C+and+only+incidentally+for+machines+to+execute.&author=Harold+Abelson',
  ],
  '/svg': [
    'type=divider&text=Projects',
    'type=status',
    'type=pill&text=Open+to+work',
    'type=card&text=Tip%3A+star+the+repositories+you+like.',
  ],
  '/visitors': ['username=readme-cards-gallery&label=gallery+views'],
  '/stats': ['username=octocat&showIcons=true', 'username=octocat&allCommits=true&theme=dracula'],
  '/streak': ['username=octocat', 'username=octocat&showCalendar=true&timezone=Europe/Paris'],
  '/activity': ['username=octocat'],
  '/languages': ['username=octocat&langsCount=6'],
  '/trophy': ['username=octocat&column=3'],
  '/repo': ['repo=octocat/Spoon-Knife', 'repo=octocat/Hello-World&showDescription=false'],
  '/stars': ['repo=octocat/Hello-World'],
  '/views': ['username=octocat'],
  '/timeline': ['username=octocat&limit=5'],
  '/snake': ['username=octocat&duration=20'],
  '/neofetch': ['username=octocat'],
  '/hours': ['username=octocat&timezone=America/New_York'],
};
