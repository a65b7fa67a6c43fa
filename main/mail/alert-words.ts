import type { StoreLanguage } from '../../shared/languages.js';
import type { AlertKind } from '../storage/alerts.js';

interface KindText {
  title: string;
  /** What happened. */
  what: string;
  /** The first thing to do. */
  todo: string;
}

export interface LanguageText {
  alert: string;
  resolved: string;
  since: string;
  ended: string;
  seen: string;
  firstStep: string;
  resolvedBody: string;
  kinds: Record<AlertKind, KindText>;
}

/** The mails' words in each store language; `detail` is what the server saw, as it saw it. */
export const ALERT_WORDS: Record<StoreLanguage, LanguageText> = {
  de: {
    alert: 'Alarm',
    resolved: 'Behoben',
    since: 'Seit',
    ended: 'Behoben um',
    seen: 'Festgestellt',
    firstStep: 'Als Erstes',
    resolvedBody: 'Der Zustand ist vorbei; es ist nichts weiter zu tun.',
    kinds: {
      'terminal-unreachable': {
        title: 'Kartenterminal nicht erreichbar',
        what: 'Das Kartenterminal des Ladens antwortet nicht: Kundinnen und Kunden können nicht mit Karte bezahlen.',
        todo: 'Prüfen Sie, ob das Terminal eingeschaltet und mit dem Netzwerk verbunden ist (Kabel oder WLAN), und starten Sie es neu.',
      },
      'printer-error': {
        title: 'Belegdrucker gestört',
        what: 'Ein Belegdrucker meldet einen Fehler (Papier leer, Deckel offen oder nicht erreichbar).',
        todo: 'Legen Sie eine neue Papierrolle ein, schliessen Sie den Deckel und prüfen Sie Strom- und Netzwerkkabel des Druckers.',
      },
      'payment-without-order': {
        title: 'Kartenzahlung ohne Verkauf',
        what: 'Eine genehmigte Kartenzahlung gehört zu keinem erfassten Verkauf: Geld wurde abgebucht, der Verkauf fehlt.',
        todo: 'Öffnen Sie die Personalseite, Abschnitt Zahlungen, und erfassen Sie den Verkauf mit dieser Zahlung oder erstatten Sie sie zurück.',
      },
      'upstream-unreachable': {
        title: 'Zentrale nicht erreicht',
        what: 'Der Laden-PC erreicht die Zentrale nicht: Verkäufe werden lokal gespeichert, aber nicht übertragen.',
        todo: 'Prüfen Sie die Internetverbindung des Laden-PCs (Router, Kabel); die Verkäufe werden danach automatisch nachgeliefert.',
      },
      'disk-low': {
        title: 'Speicherplatz knapp',
        what: 'Auf dem Datenlaufwerk des Laden-PCs ist weniger als 1 GiB frei.',
        todo: 'Löschen Sie nicht benötigte Dateien auf diesem Laufwerk (alte Sicherungen, Downloads) oder wenden Sie sich an Ihren IT-Support.',
      },
      'store-pc-silent': {
        title: 'Laden-PC meldet sich nicht',
        what: 'Ein Laden-PC hat sich bei der Zentrale nicht mehr gemeldet: Er ist vielleicht ausgeschaltet, ohne Strom oder ohne Internet. Meldet er selbst Störungen, kommen sie nicht an.',
        todo: 'Prüfen Sie, ob der Laden-PC eingeschaltet und mit dem Internet verbunden ist (Router, Kabel); er meldet sich danach von selbst wieder.',
      },
    },
  },
  fr: {
    alert: 'Alerte',
    resolved: 'Résolu',
    since: 'Depuis',
    ended: 'Résolu à',
    seen: 'Constaté',
    firstStep: 'En premier',
    resolvedBody: "La situation est rétablie ; rien d'autre à faire.",
    kinds: {
      'terminal-unreachable': {
        title: 'Terminal de paiement injoignable',
        what: 'Le terminal de paiement du magasin ne répond pas : les clients ne peuvent pas payer par carte.',
        todo: 'Vérifiez que le terminal est allumé et relié au réseau (câble ou Wi-Fi), puis redémarrez-le.',
      },
      'printer-error': {
        title: 'Imprimante de tickets en panne',
        what: "Une imprimante de tickets signale une erreur (plus de papier, capot ouvert ou injoignable).",
        todo: "Mettez un nouveau rouleau de papier, fermez le capot et vérifiez les câbles d'alimentation et de réseau de l'imprimante.",
      },
      'payment-without-order': {
        title: 'Paiement par carte sans vente',
        what: "Un paiement par carte approuvé n'appartient à aucune vente enregistrée : l'argent a été débité, la vente manque.",
        todo: 'Ouvrez la page du personnel, section Paiements, et enregistrez la vente avec ce paiement ou remboursez-le.',
      },
      'upstream-unreachable': {
        title: 'Centrale injoignable',
        what: "Le PC du magasin n'atteint pas la centrale : les ventes sont gardées sur place mais pas transmises.",
        todo: 'Vérifiez la connexion Internet du PC du magasin (routeur, câble) ; les ventes seront transmises ensuite automatiquement.',
      },
      'disk-low': {
        title: 'Espace disque insuffisant',
        what: 'Il reste moins de 1 Gio libre sur le disque de données du PC du magasin.',
        todo: 'Supprimez les fichiers inutiles sur ce disque (anciennes sauvegardes, téléchargements) ou contactez votre support informatique.',
      },
      'store-pc-silent': {
        title: 'Le PC du magasin ne donne plus de nouvelles',
        what: "Un PC du magasin ne s'est plus annoncé à la centrale : il est peut-être éteint, sans courant ou sans Internet. S'il signale lui-même des pannes, elles n'arrivent pas.",
        todo: "Vérifiez que le PC du magasin est allumé et relié à Internet (routeur, câble) ; il s'annoncera ensuite de lui-même.",
      },
    },
  },
  it: {
    alert: 'Allarme',
    resolved: 'Risolto',
    since: 'Da',
    ended: 'Risolto alle',
    seen: 'Rilevato',
    firstStep: 'Per prima cosa',
    resolvedBody: "La situazione è tornata normale; non c'è altro da fare.",
    kinds: {
      'terminal-unreachable': {
        title: 'Terminale di pagamento non raggiungibile',
        what: 'Il terminale di pagamento del negozio non risponde: i clienti non possono pagare con carta.',
        todo: 'Verificate che il terminale sia acceso e collegato alla rete (cavo o Wi-Fi) e riavviatelo.',
      },
      'printer-error': {
        title: 'Stampante scontrini guasta',
        what: 'Una stampante di scontrini segnala un errore (carta esaurita, coperchio aperto o non raggiungibile).',
        todo: 'Inserite un nuovo rotolo di carta, chiudete il coperchio e verificate i cavi di alimentazione e di rete della stampante.',
      },
      'payment-without-order': {
        title: 'Pagamento con carta senza vendita',
        what: 'Un pagamento con carta approvato non appartiene a nessuna vendita registrata: il denaro è stato addebitato, la vendita manca.',
        todo: 'Aprite la pagina del personale, sezione Pagamenti, e registrate la vendita con questo pagamento oppure rimborsatelo.',
      },
      'upstream-unreachable': {
        title: 'Sede centrale non raggiunta',
        what: 'Il PC del negozio non raggiunge la sede centrale: le vendite sono salvate sul posto ma non trasmesse.',
        todo: 'Verificate la connessione Internet del PC del negozio (router, cavo); le vendite saranno poi trasmesse automaticamente.',
      },
      'disk-low': {
        title: 'Spazio su disco insufficiente',
        what: 'Sul disco dati del PC del negozio resta meno di 1 GiB libero.',
        todo: 'Eliminate i file non necessari su questo disco (vecchi backup, download) o rivolgetevi al vostro supporto informatico.',
      },
      'store-pc-silent': {
        title: 'Il PC del negozio non dà notizie',
        what: 'Un PC del negozio non si è più annunciato alla sede centrale: forse è spento, senza corrente o senza Internet. Se segnala guasti, non arrivano.',
        todo: 'Verificate che il PC del negozio sia acceso e collegato a Internet (router, cavo); si annuncerà poi da solo.',
      },
    },
  },
  en: {
    alert: 'Alert',
    resolved: 'Resolved',
    since: 'Since',
    ended: 'Resolved at',
    seen: 'Seen',
    firstStep: 'First thing to do',
    resolvedBody: 'The condition is over; nothing more to do.',
    kinds: {
      'terminal-unreachable': {
        title: 'Card terminal unreachable',
        what: "The store's card terminal does not answer: customers cannot pay by card.",
        todo: 'Check that the terminal is switched on and connected to the network (cable or Wi-Fi), then restart it.',
      },
      'printer-error': {
        title: 'Receipt printer in error',
        what: 'A receipt printer reports an error (paper out, cover open or unreachable).',
        todo: "Put in a new paper roll, close the cover and check the printer's power and network cables.",
      },
      'payment-without-order': {
        title: 'Card payment without a sale',
        what: 'An approved card payment belongs to no recorded sale: money was taken, the sale is missing.',
        todo: 'Open the staff page, section Payments, and record the sale with this payment or refund it.',
      },
      'upstream-unreachable': {
        title: 'Head office not reached',
        what: "The store PC does not reach head office: sales are kept here but not passed on.",
        todo: "Check the store PC's internet connection (router, cable); the sales are passed on by themselves afterwards.",
      },
      'disk-low': {
        title: 'Disk space low',
        what: "Less than 1 GiB is free on the store PC's data disk.",
        todo: 'Delete files not needed on that disk (old backups, downloads) or call your IT support.',
      },
      'store-pc-silent': {
        title: 'Store PC silent',
        what: 'A store PC has stopped reporting to head office: it may be switched off, without power or without internet. Troubles it reports itself do not arrive.',
        todo: 'Check that the store PC is switched on and connected to the internet (router, cable); it reports again by itself afterwards.',
      },
    },
  },
};
