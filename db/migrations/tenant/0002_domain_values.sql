-- Standard domain values. Codes match the default valuation profile
-- (shared/design/valuation.md), so stored lots value with no mapping step.
insert into dominio.topografia (id, codigo, descricao, fator) values
  ('plano', 'plano', 'Plano', 1.00),
  ('declive_ate_5', 'declive_ate_5', 'Declive até 5%', 0.95),
  ('declive_5_10', 'declive_5_10', 'Declive de 5% a 10%', 0.90),
  ('declive_10_20', 'declive_10_20', 'Declive de 10% a 20%', 0.80),
  ('declive_acima_20', 'declive_acima_20', 'Declive acima de 20%', 0.70),
  ('aclive_ate_10', 'aclive_ate_10', 'Aclive até 10%', 0.95),
  ('aclive_10_20', 'aclive_10_20', 'Aclive de 10% a 20%', 0.90),
  ('aclive_acima_20', 'aclive_acima_20', 'Aclive acima de 20%', 0.85),
  ('abaixo_nivel_ate_1m', 'abaixo_nivel_ate_1m', 'Abaixo do nível da rua até 1 m', 1.00),
  ('abaixo_nivel_1_a_2_5m', 'abaixo_nivel_1_a_2_5m', 'Abaixo do nível da rua de 1 m a 2,5 m', 0.90),
  ('abaixo_nivel_2_5_a_4m', 'abaixo_nivel_2_5_a_4m', 'Abaixo do nível da rua de 2,5 m a 4 m', 0.80),
  ('acima_nivel_ate_2m', 'acima_nivel_ate_2m', 'Acima do nível da rua até 2 m', 1.00),
  ('acima_nivel_2_a_4m', 'acima_nivel_2_a_4m', 'Acima do nível da rua de 2 m a 4 m', 0.90)
on conflict do nothing;

insert into dominio.pedologia (id, codigo, descricao, fator) values
  ('seco', 'seco', 'Seco', 1.00),
  ('inundavel_acesso', 'inundavel_acesso', 'Inundável no acesso', 0.90),
  ('inundavel_periodico', 'inundavel_periodico', 'Inundável periodicamente', 0.70),
  ('alagado_permanente', 'alagado_permanente', 'Alagado permanentemente', 0.60)
on conflict do nothing;

insert into dominio.situacao (id, codigo, descricao, fator) values
  ('meio_quadra', 'meio_quadra', 'Meio de quadra', 1.00),
  ('esquina', 'esquina', 'Esquina', 1.10),
  ('duas_frentes', 'duas_frentes', 'Duas frentes', 1.05),
  ('encravado', 'encravado', 'Encravado', 0.70),
  ('vila', 'vila', 'Vila', 0.90)
on conflict do nothing;

insert into dominio.padrao_construtivo (id, codigo, descricao) values
  ('R1-B', 'R1-B', 'Residência unifamiliar, padrão baixo'),
  ('R1-N', 'R1-N', 'Residência unifamiliar, padrão normal'),
  ('R1-A', 'R1-A', 'Residência unifamiliar, padrão alto'),
  ('PP4-B', 'PP4-B', 'Prédio popular, 4 pavimentos, padrão baixo'),
  ('PP4-N', 'PP4-N', 'Prédio popular, 4 pavimentos, padrão normal'),
  ('R8-B', 'R8-B', 'Residência multifamiliar, 8 pavimentos, padrão baixo'),
  ('R8-N', 'R8-N', 'Residência multifamiliar, 8 pavimentos, padrão normal'),
  ('R8-A', 'R8-A', 'Residência multifamiliar, 8 pavimentos, padrão alto'),
  ('R16-N', 'R16-N', 'Residência multifamiliar, 16 pavimentos, padrão normal'),
  ('R16-A', 'R16-A', 'Residência multifamiliar, 16 pavimentos, padrão alto'),
  ('PIS', 'PIS', 'Projeto de interesse social'),
  ('RP1Q', 'RP1Q', 'Residência popular'),
  ('CAL8-N', 'CAL8-N', 'Comercial andares livres, 8 pavimentos, padrão normal'),
  ('CAL8-A', 'CAL8-A', 'Comercial andares livres, 8 pavimentos, padrão alto'),
  ('CSL8-N', 'CSL8-N', 'Comercial salas e lojas, 8 pavimentos, padrão normal'),
  ('CSL8-A', 'CSL8-A', 'Comercial salas e lojas, 8 pavimentos, padrão alto'),
  ('CSL16-N', 'CSL16-N', 'Comercial salas e lojas, 16 pavimentos, padrão normal'),
  ('CSL16-A', 'CSL16-A', 'Comercial salas e lojas, 16 pavimentos, padrão alto'),
  ('GI', 'GI', 'Galpão industrial')
on conflict do nothing;

insert into dominio.uso (id, codigo, descricao) values
  ('residencial', 'residencial', 'Residencial'),
  ('comercial', 'comercial', 'Comercial'),
  ('servicos', 'servicos', 'Serviços'),
  ('industrial', 'industrial', 'Industrial'),
  ('misto', 'misto', 'Misto'),
  ('institucional', 'institucional', 'Institucional'),
  ('religioso', 'religioso', 'Religioso'),
  ('territorial', 'territorial', 'Territorial (terreno vago)')
on conflict do nothing;

insert into dominio.conservacao (id, codigo, descricao) values
  ('a', 'a', 'Novo'),
  ('b', 'b', 'Entre novo e regular'),
  ('c', 'c', 'Regular'),
  ('d', 'd', 'Entre regular e reparos simples'),
  ('e', 'e', 'Reparos simples'),
  ('f', 'f', 'Entre reparos simples e importantes'),
  ('g', 'g', 'Reparos importantes'),
  ('h', 'h', 'Entre reparos importantes e sem valor')
on conflict do nothing;

insert into dominio.tipo_logradouro (id, codigo, descricao) values
  ('RUA', 'RUA', 'Rua'),
  ('AV', 'AV', 'Avenida'),
  ('TV', 'TV', 'Travessa'),
  ('AL', 'AL', 'Alameda'),
  ('PC', 'PC', 'Praça'),
  ('EST', 'EST', 'Estrada')
on conflict do nothing;
